#include "groth16/prover_checks.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <string>

namespace cuzk::groth16 {
namespace {

void expect_size(std::size_t have, std::size_t want, const char* what) {
  if (have != want) {
    throw std::invalid_argument(std::string("parameters do not match the circuit: ") + what + " has " +
                                std::to_string(have) + " points, the circuit needs " + std::to_string(want));
  }
}

// a * b == c, without the product where a factor is 0 or 1: most rows of a
// Filecoin circuit (bit constraints, packing, SHA-256) have one.
bool row_holds(const ff::fr_t& a, const ff::fr_t& b, const ff::fr_t& c) {
  if (a.is_zero() || b.is_zero()) return c.is_zero();
  if (a.is_one()) return b == c;
  if (b.is_one()) return a == c;
  return a * b == c;
}

}  // namespace

void check_parameters_fit(const query_sizes_t& sizes, const r1cs::witness_cs& w, std::size_t domain_n) {
  const std::size_t n_inputs = w.num_inputs();
  expect_size(sizes.ic, n_inputs, "vk.ic");
  expect_size(sizes.h, domain_n - 1, "h");
  expect_size(sizes.l, w.num_aux(), "l");
  expect_size(sizes.a, n_inputs + w.a_aux_density().total_density(), "a");
  expect_size(sizes.b_g1, w.b_input_density().total_density() + w.b_aux_density().total_density(), "b_g1");
  expect_size(sizes.b_g2, sizes.b_g1, "b_g2");
}

// In parallel: one product per row is ~4 s on one core at 2^27 rows (less
// with row_holds's shortcuts). The first failing row is the smallest failing
// index over all chunks.
void check_satisfied(std::span<const ff::fr_t> a, std::span<const ff::fr_t> b, std::span<const ff::fr_t> c) {
  std::atomic<std::size_t> first_bad{SIZE_MAX};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, a.size(), 1 << 14), [&](const auto& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) {
      if (row_holds(a[i], b[i], c[i])) continue;
      std::size_t cur = first_bad.load();
      while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
      }
      return;
    }
  });
  if (const std::size_t i = first_bad.load(); i != SIZE_MAX) throw_unsatisfied(i);
}

void throw_unsatisfied(std::size_t row) {
  throw unsatisfied_witness("witness does not satisfy constraint " + std::to_string(row) +
                            " (A*B != C); run the circuit in test mode to name it");
}

void check_witness_rows(r1cs::witness_cs& w) {
  if (w.is_deferred()) return;  // no rows yet: take_checked_evaluations checks them once formed
  check_satisfied(w.a(), w.b(), w.c());
  w.mark_rows_checked();
}

std::vector<ff::fr_t> compact_dense(std::span<const ff::fr_t> scalars, const r1cs::density_tracker& d) {
  if (scalars.size() != d.size()) throw std::logic_error("compact_dense: density and assignment differ in length");
  const auto words = d.words();
  constexpr std::size_t words_per_chunk = 1 << 12;  // 2^18 scalars
  const std::size_t chunks = (words.size() + words_per_chunk - 1) / words_per_chunk;
  auto word_range = [&](std::size_t k) {
    return std::pair(k * words_per_chunk, std::min(words.size(), (k + 1) * words_per_chunk));
  };
  // Pass 1: set bits per chunk; pass 2: each chunk writes from its prefix
  // offset. Bits past size() are clear (density_tracker's invariant).
  std::vector<std::size_t> at(chunks + 1, 0);
  tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t k) {
    const auto [w0, w1] = word_range(k);
    for (std::size_t w = w0; w < w1; ++w) at[k + 1] += std::size_t(std::popcount(words[w]));
  });
  for (std::size_t k = 0; k < chunks; ++k) at[k + 1] += at[k];
  std::vector<ff::fr_t> out(at[chunks]);
  tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t k) {
    const auto [w0, w1] = word_range(k);
    std::size_t o = at[k];
    for (std::size_t w = w0; w < w1; ++w) {
      for (std::uint64_t bits = words[w]; bits; bits &= bits - 1) out[o++] = scalars[w * 64 + std::size_t(std::countr_zero(bits))];
    }
  });
  return out;
}

qap_evaluations_t take_checked_evaluations(const query_sizes_t& sizes, r1cs::witness_cs& w) {
  w.materialize();
  poly::domain_t d = poly::domain_t::for_size(w.num_constraints());
  if (d.n < 2) d = poly::domain_t(1);
  check_parameters_fit(sizes, w, d.n);
  const bool checked = w.rows_checked();
  qap_evaluations_t e{d, w.take_a(), w.take_b(), w.take_c()};
  if (!checked) check_satisfied(e.a, e.b, e.c);
  // fr_vector leaves new elements unwritten: the padding rows must be zeros.
  // Written in parallel: at 32 GiB PoRep that is 3 x 3.9 M rows (375 MB), on
  // the prove worker's path.
  for (r1cs::fr_vector* v : {&e.a, &e.b, &e.c}) {
    const std::size_t rows = v->size();
    if (rows >= d.n) continue;
    v->resize(d.n);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(rows, d.n, 1 << 16), [v](const auto& r) {
      std::fill(v->begin() + std::ptrdiff_t(r.begin()), v->begin() + std::ptrdiff_t(r.end()), ff::fr_t::zero());
    });
  }
  return e;
}

}  // namespace cuzk::groth16
