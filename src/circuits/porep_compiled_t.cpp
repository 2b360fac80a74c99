#include "circuits/porep_compiled_t.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <bit>
#include <stdexcept>
#include <string>

#include "circuits/porep_circuit.hpp"
#include "circuits/porep_record_cs.hpp"

namespace cuzk::circuits {
namespace {

using ff::fr_t;
using R = porep_sparse_rows_t;

void set_bit(std::vector<std::uint64_t>& words, std::size_t i) { words[i / 64] |= std::uint64_t(1) << (i % 64); }

void or_word(std::uint64_t* words, std::size_t i, std::uint64_t bits) {
  if (bits) std::atomic_ref<std::uint64_t>(words[i]).fetch_or(bits, std::memory_order_relaxed);
}

// ORs `src` (n bits) into `dst` starting at bit `offset`; blocks of different
// challenges share boundary words, hence the atomic OR.
void or_shifted(std::uint64_t* dst, const std::vector<std::uint64_t>& src, std::size_t offset) {
  const std::size_t w0 = offset / 64, sh = offset % 64;
  for (std::size_t j = 0; j < src.size(); ++j) {
    if (!src[j]) continue;
    or_word(dst, w0 + j, src[j] << sh);
    if (sh) or_word(dst, w0 + j + 1, src[j] >> (64 - sh));
  }
}

constexpr std::size_t rows_per_task = std::size_t(1) << 15;

}  // namespace

porep_compiled_t porep_compiled_t::compile(const porep_circuit& circuit, const porep_layout_t& l) {
  porep_circuit::top_vars_t top;
  return compile_blocks(
      l, [&](porep_record_cs& cs) { top = circuit.synthesize_top(cs); },
      [&](porep_record_cs& cs) {
        porep_circuit::challenge_vars_t v;
        v.data_leaf = circuit.step_leaf(cs, 0);
        circuit.step_tree_d(cs, 0, top, v.data_leaf);
        circuit.step_parents(cs, 0, top, v);
        v.challenge_bits = circuit.step_challenge(cs, 0);
        std::vector<porep_ops::num_t> labels;
        for (unsigned layer = 1; layer <= circuit.shape().layers; ++layer) {
          labels.push_back(circuit.step_label(cs, 0, layer, top, v));
        }
        circuit.step_tail(cs, 0, top, v.data_leaf, labels);
      });
}

porep_compiled_t porep_compiled_t::compile_blocks(const porep_layout_t& l, const recorder_t& record_top,
                                                  const recorder_t& record_block) {
  porep_compiled_t out;
  out.layout_ = l;
  auto& t = out.top_;
  porep_record_cs top_cs(out.coeffs_, t.a, t.b, t.c, 0, 1, porep_record_cs::no_block, porep_record_cs::no_block);
  record_top(top_cs);

  const porep_slot_t b0 = l.at(0, {});
  auto& m = out.block_;
  porep_record_cs cs(out.coeffs_, m.a, m.b, m.c, b0.aux, b0.input, b0.aux, b0.input, l.window_of(0), l.window_len);
  record_block(cs);
  if (!l.windows.empty() && l.windows.size() != l.challenges) {
    throw std::logic_error("compile_blocks: " + std::to_string(l.windows.size()) + " windows for " +
                           std::to_string(l.challenges) + " blocks");
  }
  if (t.a.rows() != l.top.row_end || m.a.rows() != l.block_rows) {
    throw std::logic_error("compile_blocks: recorded " + std::to_string(t.a.rows()) + " top and " +
                           std::to_string(m.a.rows()) + " block rows, the layout has " + std::to_string(l.top.row_end) +
                           " and " + std::to_string(l.block_rows));
  }

  const std::size_t abs_aux = l.top.aux_end, abs_in = l.top.input_end;
  out.top_a_ = density_of(t.a, out.coeffs_, 0, 0, abs_aux, abs_in, 0);
  out.top_b_ = density_of(t.b, out.coeffs_, 0, 0, abs_aux, abs_in, 0);
  out.block_a_ = density_of(m.a, out.coeffs_, l.block_aux, l.block_inputs, abs_aux, abs_in, l.window_len);
  out.block_b_ = density_of(m.b, out.coeffs_, l.block_aux, l.block_inputs, abs_aux, abs_in, l.window_len);
  return out;
}

porep_compiled_t::density_t porep_compiled_t::density_of(const porep_sparse_rows_t& m,
                                                         const porep_coeff_table_t& coeffs, std::size_t block_aux,
                                                         std::size_t block_inputs, std::size_t abs_aux,
                                                         std::size_t abs_inputs, std::size_t window_aux) {
  density_t d;
  d.block_aux.assign((block_aux + 63) / 64, 0);
  d.block_input.assign((block_inputs + 63) / 64, 0);
  d.abs_aux.assign((abs_aux + 63) / 64, 0);
  d.abs_input.assign((abs_inputs + 63) / 64, 0);
  d.window_aux.assign((window_aux + 63) / 64, 0);
  std::vector<std::uint64_t>* by_class[R::class_count] = {&d.block_aux, &d.abs_aux, &d.block_input, &d.abs_input,
                                                          &d.window_aux};
  for (const R::term_t& t : m.terms) {
    // witness_cs marks a variable for every term with a nonzero coefficient.
    if (coeffs[t.coeff].is_zero()) continue;
    set_bit(*by_class[t.var >> R::class_shift], t.var & R::index_mask);
  }
  return d;
}

void porep_compiled_t::eval_rows(const porep_sparse_rows_t& m, std::size_t r0, std::size_t r1,
                                 const porep_witness_t& w, const porep_slot_t& at, std::size_t window,
                                 fr_t* out) const {
  const fr_t* const bases[R::class_count] = {w.aux.data() + at.aux, w.aux.data(), w.inputs.data() + at.input,
                                             w.inputs.data(), w.aux.data() + window};
  std::size_t k = r0 ? m.row_end[r0 - 1] : 0;
  for (std::size_t r = r0; r < r1; ++r) {
    fr_t acc = fr_t::zero();
    for (const std::size_t end = m.row_end[r]; k < end; ++k) {
      const R::term_t t = m.terms[k];
      const fr_t& x = bases[t.var >> R::class_shift][t.var & R::index_mask];
      if (t.coeff == porep_coeff_table_t::plus_one) acc += x;
      else if (t.coeff == porep_coeff_table_t::minus_one) acc -= x;
      else if (x.is_one()) acc += coeffs_[t.coeff];
      else if (!x.is_zero()) acc += coeffs_[t.coeff] * x;
    }
    out[r] = acc;
  }
}

void porep_compiled_t::apply_density(const density_t& d, std::uint64_t* aux, std::uint64_t* inputs) const {
  or_shifted(aux, d.abs_aux, 0);
  or_shifted(inputs, d.abs_input, 0);
  for (unsigned q = 0; q < layout_.challenges; ++q) {
    const porep_slot_t s = layout_.at(q, {});
    or_shifted(aux, d.block_aux, s.aux);
    or_shifted(inputs, d.block_input, s.input);
    or_shifted(aux, d.window_aux, layout_.window_of(q));
  }
}

void porep_compiled_t::densities(std::span<std::uint64_t> a_input, std::span<std::uint64_t> b_input,
                                 std::span<std::uint64_t> a_aux, std::span<std::uint64_t> b_aux) const {
  const std::size_t in_words = (layout_.num_inputs() + 63) / 64, aux_words = (layout_.num_aux() + 63) / 64;
  if (a_input.size() != in_words || b_input.size() != in_words || a_aux.size() != aux_words ||
      b_aux.size() != aux_words) {
    throw std::invalid_argument("porep_compiled_t::densities: bitmaps of another shape");
  }
  // The top block's bitmaps have no block-relative bits, so applying them
  // per challenge adds nothing but their absolute bits.
  apply_density(top_a_, a_aux.data(), a_input.data());
  apply_density(top_b_, b_aux.data(), b_input.data());
  apply_density(block_a_, a_aux.data(), a_input.data());
  apply_density(block_b_, b_aux.data(), b_input.data());
  // The input rows x_i * 0 = 0 put every input in A.
  for (std::size_t i = 0; i < layout_.num_inputs(); ++i) a_input[i / 64] |= std::uint64_t(1) << (i % 64);
}

r1cs::compiled_rows_view_t porep_compiled_t::view() const {
  using V = r1cs::compiled_rows_view_t;
  static_assert(V::class_shift == R::class_shift && V::index_mask == R::index_mask);
  static_assert(V::plus_one == porep_coeff_table_t::plus_one && V::minus_one == porep_coeff_table_t::minus_one);
  static_assert(sizeof(R::term_t) == 3 * sizeof(std::uint16_t));
  auto matrix = [](const porep_sparse_rows_t& m) {
    return V::matrix_t{m.row_end, {reinterpret_cast<const std::uint16_t*>(m.terms.data()), 3 * m.terms.size()}};
  };
  const porep_layout_t& l = layout_;
  V v;
  v.coeffs = coeffs_.values();
  v.blocks.push_back({matrix(top_.a), matrix(top_.b), matrix(top_.c), {{0, 0, 0}}});
  V::block_t blk{matrix(block_.a), matrix(block_.b), matrix(block_.c), {}};
  for (unsigned q = 0; q < l.challenges; ++q) {
    const porep_slot_t s = l.at(q, {});
    blk.instances.push_back({s.row, s.aux, s.input, l.window_of(q)});
  }
  v.blocks.push_back(std::move(blk));
  v.circuit_rows = l.circuit_rows();
  v.num_inputs = l.num_inputs();
  v.num_aux = l.num_aux();
  return v;
}

void porep_compiled_t::evaluate(porep_witness_t& w) const {
  const porep_layout_t& l = layout_;
  eval_rows(top_.a, 0, top_.a.rows(), w, {}, 0, w.a.data());
  eval_rows(top_.b, 0, top_.b.rows(), w, {}, 0, w.b.data());
  eval_rows(top_.c, 0, top_.c.rows(), w, {}, 0, w.c.data());
  const std::size_t chunks = (l.block_rows + rows_per_task - 1) / rows_per_task;
  tbb::parallel_for(std::size_t(0), std::size_t(l.challenges) * chunks, [&](std::size_t task) {
    const unsigned q = unsigned(task / chunks);
    const std::size_t r0 = (task % chunks) * rows_per_task, r1 = std::min(l.block_rows, r0 + rows_per_task);
    const porep_slot_t s = l.at(q, {});
    const std::size_t win = l.window_of(q);
    eval_rows(block_.a, r0, r1, w, s, win, w.a.data() + s.row);
    eval_rows(block_.b, r0, r1, w, s, win, w.b.data() + s.row);
    eval_rows(block_.c, r0, r1, w, s, win, w.c.data() + s.row);
  });
  densities(w.a_input_density, w.b_input_density, w.a_aux_density, w.b_aux_density);
  const std::size_t first = l.circuit_rows();
  for (std::size_t i = 0; i < w.inputs.size(); ++i) {
    w.a[first + i] = w.inputs[i];
    w.b[first + i] = fr_t::zero();
    w.c[first + i] = fr_t::zero();
  }
}

void porep_compiled_t::scatter_rows(const porep_sparse_rows_t& m, const fr_t* row_values, std::size_t block_aux_col,
                                    std::size_t block_input_col, std::size_t window, fr_t* columns,
                                    fr_t* shared) const {
  const std::size_t abs_aux_col = layout_.top.input_end;  // shared: abs inputs, then abs aux
  fr_t* const bases[R::class_count] = {columns + block_aux_col, shared + abs_aux_col, columns + block_input_col, shared,
                                       shared + abs_aux_col + window};
  std::size_t k = 0;
  for (std::size_t r = 0; r < m.rows(); ++r) {
    const fr_t& v = row_values[r];
    for (const std::size_t end = m.row_end[r]; k < end; ++k) {
      const R::term_t t = m.terms[k];
      fr_t& x = bases[t.var >> R::class_shift][t.var & R::index_mask];
      if (t.coeff == porep_coeff_table_t::plus_one) x += v;
      else if (t.coeff == porep_coeff_table_t::minus_one) x -= v;
      else x += coeffs_[t.coeff] * v;
    }
  }
}

r1cs::qap_columns_t porep_compiled_t::qap_columns(std::span<const fr_t> row_values) const {
  const porep_layout_t& l = layout_;
  if (row_values.size() < l.num_constraints()) {
    throw std::invalid_argument("porep qap_columns: " + std::to_string(row_values.size()) + " row values for " +
                                std::to_string(l.num_constraints()) + " constraints");
  }
  // Columns: inputs (ONE first), then aux; the top block's variables are the
  // first top.input_end inputs and the first top.aux_end aux.
  const std::size_t n_in = l.num_inputs(), n_cols = n_in + l.num_aux();
  const std::size_t n_shared = l.top.input_end + l.top.aux_end;
  r1cs::qap_columns_t out{std::vector<fr_t>(n_cols, fr_t::zero()), std::vector<fr_t>(n_cols, fr_t::zero()),
                          std::vector<fr_t>(n_cols, fr_t::zero())};
  std::vector<fr_t>* cols[3] = {&out.a, &out.b, &out.c};
  const matrices_t::member_t members[3] = {&matrices_t::a, &matrices_t::b, &matrices_t::c};
  tbb::enumerable_thread_specific<std::vector<fr_t>> shared(std::vector<fr_t>(3 * n_shared, fr_t::zero()));
  tbb::parallel_for(std::size_t(0), std::size_t(l.challenges) * 3 + 3, [&](std::size_t task) {
    const std::size_t m = task % 3;
    fr_t* const sh = shared.local().data() + m * n_shared;
    fr_t* const c = cols[m]->data();
    if (task < 3) {  // the top block: absolute variables only
      scatter_rows(top_.*members[m], row_values.data(), 0, 0, 0, c, sh);
      return;
    }
    const unsigned q = unsigned(task / 3 - 1);
    const porep_slot_t s = l.at(q, {});
    scatter_rows(block_.*members[m], row_values.data() + s.row, n_in + s.aux, s.input, l.window_of(q), c, sh);
  });
  for (const auto& part : shared) {
    for (std::size_t m = 0; m < 3; ++m) {
      for (std::size_t j = 0; j < l.top.input_end; ++j) (*cols[m])[j] += part[m * n_shared + j];
      for (std::size_t j = 0; j < l.top.aux_end; ++j) (*cols[m])[n_in + j] += part[m * n_shared + l.top.input_end + j];
    }
  }
  // Input rows x_i * 0 = 0: A only.
  const std::size_t first = l.circuit_rows();
  for (std::size_t i = 0; i < n_in; ++i) out.a[i] += row_values[first + i];
  return out;
}

std::size_t porep_compiled_t::bytes() const {
  std::size_t n = 0;
  for (const matrices_t* m : {&top_, &block_}) n += m->a.bytes() + m->b.bytes() + m->c.bytes();
  return n;
}

}  // namespace cuzk::circuits
