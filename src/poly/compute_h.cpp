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
  tbb::parallel_for(tbb::blocked_range<size_t>(0, a.size(), 4096), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) a[i] *= b[i];
  });
  // Both interpolations leave their coefficients in bit-reversed order, so
  // they are subtracted there; 1/n and 1/(g^n - 1) are one factor.
  ntt_nr(d, a, ntt_dir::inverse);
  mul_by_powers_bit_reversed(a, fr_t::one(), d.g_inv);
  ntt_nr(d, c, ntt_dir::inverse);
  const fr_t scale = d.n_inv * d.z_on_coset_inv();
  tbb::parallel_for(tbb::blocked_range<size_t>(0, a.size(), 4096), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) a[i] = (a[i] - c[i]) * scale;
  });
  bit_reverse(a);
}

}  // namespace cuzk::poly
