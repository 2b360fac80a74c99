#include "circuits/porep_synthesis.hpp"

#include <tbb/parallel_for.h>

#include <bit>
#include <stdexcept>
#include <string>

#include "circuits/porep_assign_cs.hpp"
#include "circuits/porep_slot_cs.hpp"

namespace cuzk::circuits {
namespace {

using ff::fr_t;

}  // namespace

namespace {

// The prover zero-extends a, b, c to the NTT domain (the next power of two):
// room for it now means no 3 x 4 GiB copy then (32 GiB: 130.3 M -> 2^27 rows).
void allocate_rows(porep_witness_t& w, std::size_t rows) {
  const std::size_t domain = std::bit_ceil(rows);
  for (auto* v : {&w.a, &w.b, &w.c}) {
    v->reserve(domain);
    v->resize(rows);
  }
}

// The compiled matrices as a deferred witness's row evaluator.
class compiled_rows_t final : public r1cs::witness_cs::row_evaluator_t {
 public:
  explicit compiled_rows_t(std::shared_ptr<const porep_compiled_t> c) : compiled_(std::move(c)), view_(compiled_->view()) {}
  r1cs::shape_counts_t counts() const override {
    const porep_layout_t& l = compiled_->layout();
    return {l.num_constraints(), l.num_inputs(), l.num_aux()};
  }
  void evaluate(r1cs::witness_cs::parts_t& p) const override {
    const porep_layout_t& l = compiled_->layout();
    porep_witness_t w = allocate_block_witness(l, false);
    if (p.inputs.size() != w.inputs.size() || p.aux.size() != w.aux.size()) {
      throw std::invalid_argument("compiled rows: an assignment of another shape");
    }
    w.inputs = std::move(p.inputs);
    w.aux = std::move(p.aux);
    form_rows(w, *compiled_);
    const std::size_t n_in = w.inputs.size(), n_aux = w.aux.size();
    p = {std::move(w.inputs),
         std::move(w.aux),
         std::move(w.a),
         std::move(w.b),
         std::move(w.c),
         r1cs::density_tracker::from_words(std::move(w.a_input_density), n_in),
         r1cs::density_tracker::from_words(std::move(w.b_input_density), n_in),
         r1cs::density_tracker::from_words(std::move(w.a_aux_density), n_aux),
         r1cs::density_tracker::from_words(std::move(w.b_aux_density), n_aux)};
  }
  void densities(r1cs::witness_cs::parts_t& p) const override {
    const porep_layout_t& l = compiled_->layout();
    const std::size_t n_in = l.num_inputs(), n_aux = l.num_aux();
    std::vector<std::uint64_t> a_in((n_in + 63) / 64), b_in(a_in.size()), a_aux((n_aux + 63) / 64), b_aux(a_aux.size());
    compiled_->densities(a_in, b_in, a_aux, b_aux);
    p.a_input_density = r1cs::density_tracker::from_words(std::move(a_in), n_in);
    p.b_input_density = r1cs::density_tracker::from_words(std::move(b_in), n_in);
    p.a_aux_density = r1cs::density_tracker::from_words(std::move(a_aux), n_aux);
    p.b_aux_density = r1cs::density_tracker::from_words(std::move(b_aux), n_aux);
  }
  const r1cs::compiled_rows_view_t* view() const override { return &view_; }

 private:
  std::shared_ptr<const porep_compiled_t> compiled_;
  r1cs::compiled_rows_view_t view_;  // points into *compiled_
};

}  // namespace

namespace {

porep_witness_t allocate_witness(const porep_layout_t& l, bool with_rows, const porep_compiled_t* compact_for) {
  porep_witness_t w;
  const std::size_t n_in = l.num_inputs(), n_aux = l.num_aux();
  if (with_rows) allocate_rows(w, l.num_constraints());
  w.inputs.resize(n_in);
  if (compact_for) w.aux_compact = std::make_unique<r1cs::compact_builder_t>(n_aux, compact_for->wide_aux_bound());
  else w.aux.resize(n_aux);
  w.a_input_density.assign((n_in + 63) / 64, 0);
  w.b_input_density.assign((n_in + 63) / 64, 0);
  w.a_aux_density.assign((n_aux + 63) / 64, 0);
  w.b_aux_density.assign((n_aux + 63) / 64, 0);
  w.inputs[0] = fr_t::one();
  return w;
}

}  // namespace

porep_witness_t allocate_block_witness(const porep_layout_t& l, bool with_rows) {
  return allocate_witness(l, with_rows, nullptr);
}

porep_witness_t allocate_values_witness(const porep_compiled_t& compiled, bool compact_aux) {
  return allocate_witness(compiled.layout(), false, compact_aux ? &compiled : nullptr);
}

namespace {

void check_fits(const porep_circuit& circuit, const porep_layout_t& l) {
  if (!circuit.has_witness()) throw std::invalid_argument("porep synthesis: the circuit has no witness");
  if (l.challenges != circuit.shape().challenges || l.labels.size() != circuit.shape().layers) {
    throw std::invalid_argument("porep synthesis: layout measured for another shape");
  }
}

template <class CS>
void expect_filled(CS& cs, const char* step, unsigned q) {
  if (!cs.done()) {
    throw std::logic_error(std::string("porep synthesis: step '") + step + "' of challenge " + std::to_string(q) +
                           " did not fill its slot (the layout does not match the circuit)");
  }
}

// The three phases of porep_synthesis.hpp, each step into its own slot, with
// CS = porep_slot_cs (rows evaluated as they are enforced) or porep_assign_cs
// (values only; rows come from the compiled matrices).
template <class CS>
void run_steps(const porep_circuit& circuit, const porep_layout_t& l, porep_witness_t& w) {
  CS top_cs(w, l.top);
  const porep_circuit::top_vars_t top = circuit.synthesize_top(top_cs);
  expect_filled(top_cs, "top", 0);

  const unsigned nq = l.challenges, layers = circuit.shape().layers;
  std::vector<porep_circuit::challenge_vars_t> vars(nq);
  tbb::parallel_for(0u, nq, [&](unsigned q) {
    auto& v = vars[q];
    CS leaf(w, l.at(q, l.leaf));
    v.data_leaf = circuit.step_leaf(leaf, q);
    expect_filled(leaf, "leaf", q);
    CS parents(w, l.at(q, l.parents));
    circuit.step_parents(parents, q, top, v);
    expect_filled(parents, "parents", q);
    CS chal(w, l.at(q, l.challenge));
    v.challenge_bits = circuit.step_challenge(chal, q);
    expect_filled(chal, "challenge", q);
  });

  // Tree D and the labels: nq * (layers + 1) independent tasks of 0.5-1.4 M rows (32 GiB).
  std::vector<std::vector<porep_ops::num_t>> labels(nq, std::vector<porep_ops::num_t>(layers));
  tbb::parallel_for(0u, nq * (layers + 1), [&](unsigned t) {
    const unsigned q = t / (layers + 1), k = t % (layers + 1);
    if (k == 0) {
      CS cs(w, l.at(q, l.tree_d));
      circuit.step_tree_d(cs, q, top, vars[q].data_leaf);
      expect_filled(cs, "tree_d", q);
    } else {
      CS cs(w, l.at(q, l.labels[k - 1]));
      labels[q][k - 1] = circuit.step_label(cs, q, k, top, vars[q]);
      expect_filled(cs, "label", q);
    }
  });

  tbb::parallel_for(0u, nq, [&](unsigned q) {
    CS cs(w, l.at(q, l.tail));
    circuit.step_tail(cs, q, top, vars[q].data_leaf, labels[q]);
    expect_filled(cs, "tail", q);
  });
}

// bellman's input rows: x_i * 0 = 0 after the circuit's own rows.
void add_input_rows(porep_witness_t& w, std::size_t first_row) {
  for (std::size_t i = 0; i < w.inputs.size(); ++i) {
    w.a[first_row + i] = w.inputs[i];
    w.b[first_row + i] = fr_t::zero();
    w.c[first_row + i] = fr_t::zero();
    w.a_input_density[i / 64] |= std::uint64_t(1) << (i % 64);
  }
}

}  // namespace

r1cs::witness_cs porep_witness_t::into_witness_cs() && {
  const std::size_t n_in = inputs.size(), n_aux = aux.size();
  r1cs::witness_cs::parts_t p{std::move(inputs),
                              std::move(aux),
                              std::move(a),
                              std::move(b),
                              std::move(c),
                              r1cs::density_tracker::from_words(std::move(a_input_density), n_in),
                              r1cs::density_tracker::from_words(std::move(b_input_density), n_in),
                              r1cs::density_tracker::from_words(std::move(a_aux_density), n_aux),
                              r1cs::density_tracker::from_words(std::move(b_aux_density), n_aux)};
  return r1cs::witness_cs::from_parts(std::move(p));
}

porep_witness_t synthesize_porep_witness(const porep_circuit& circuit, const porep_layout_t& l) {
  check_fits(circuit, l);
  porep_witness_t w = allocate_block_witness(l);
  run_steps<porep_slot_cs>(circuit, l, w);
  add_input_rows(w, l.circuit_rows());
  return w;
}

porep_witness_t assign_porep_compiled(const porep_circuit& circuit, const porep_compiled_t& compiled, bool compact_aux) {
  check_fits(circuit, compiled.layout());
  porep_witness_t w = allocate_values_witness(compiled, compact_aux);
  run_steps<porep_assign_cs>(circuit, compiled.layout(), w);
  return w;
}

porep_witness_t synthesize_porep_compiled(const porep_circuit& circuit, const porep_compiled_t& compiled) {
  porep_witness_t w = assign_porep_compiled(circuit, compiled);
  form_rows(w, compiled);
  return w;
}

void form_rows(porep_witness_t& w, const porep_compiled_t& compiled) {
  allocate_rows(w, compiled.layout().num_constraints());
  for (auto* d : {&w.a_input_density, &w.b_input_density, &w.a_aux_density, &w.b_aux_density})
    std::fill(d->begin(), d->end(), 0);
  compiled.evaluate(w);
}

r1cs::witness_cs into_deferred_witness(porep_witness_t&& w, std::shared_ptr<const porep_compiled_t> compiled) {
  r1cs::compact_assignment_t aux = w.aux_compact ? std::move(*w.aux_compact).finish()
                                                 : r1cs::compact_assignment_t::pack(w.aux);
  w.aux_compact.reset();
  r1cs::fr_vector().swap(w.aux);
  return r1cs::witness_cs::deferred(std::move(w.inputs), std::move(aux),
                                    std::make_shared<const compiled_rows_t>(std::move(compiled)));
}

}  // namespace cuzk::circuits
