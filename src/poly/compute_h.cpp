#include "poly/compute_h.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <stdexcept>

#include "poly/ntt.hpp"

namespace cuzk::poly {

namespace {

// Values on H -> values on g·H without bit-reversal passes: the inverse DIF
// leaves coefficients in bit-reversed order, the coset scaling (and 1/n) is
// applied there, and the forward DIT takes bit-reversed input.
void evals_to_coset(const domain_t& d, std::span<fr_t> x) {
  ntt_nr(d, x, ntt_dir::inverse);
  mul_by_powers_bit_reversed(x, d.n_inv, d.g);
  ntt_rn(d, x, ntt_dir::forward);
}

}  // namespace

void compute_h(const domain_t& d, std::span<fr_t> a, std::span<fr_t> b, std::span<fr_t> c) {
  if (a.size() != d.n || b.size() != d.n || c.size() != d.n) {
    throw std::invalid_argument("poly::compute_h: a, b, c must each hold exactly n = 2^log_n values");
  }
  evals_to_coset(d, a);
  evals_to_coset(d, b);
  evals_to_coset(d, c);

  const fr_t z_inv = d.z_on_coset_inv();
  tbb::parallel_for(tbb::blocked_range<size_t>(0, a.size(), 4096), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv;
  });

  ntt_nr(d, a, ntt_dir::inverse);
  mul_by_powers_bit_reversed(a, d.n_inv, d.g_inv);
  bit_reverse(a);
}

}  // namespace cuzk::poly
