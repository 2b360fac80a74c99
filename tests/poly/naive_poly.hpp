#pragma once
// Quadratic-time references for the poly tests: Horner evaluation and schoolbook
// products, sharing no code with src/poly beyond the field itself.
#include <random>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::poly::naive {

using ff::fr_t;

inline fr_t eval(const std::vector<fr_t>& coeffs, const fr_t& x) {
  fr_t acc = fr_t::zero();
  for (size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

// y[k] = P(shift * w^k) for k < coeffs.size().
inline std::vector<fr_t> dft(const std::vector<fr_t>& coeffs, const fr_t& w, const fr_t& shift = fr_t::one()) {
  std::vector<fr_t> y(coeffs.size());
  fr_t pt = shift;
  for (auto& e : y) {
    e = eval(coeffs, pt);
    pt *= w;
  }
  return y;
}

inline std::vector<fr_t> mul(const std::vector<fr_t>& a, const std::vector<fr_t>& b) {
  std::vector<fr_t> p(a.size() + b.size() - 1, fr_t::zero());
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < b.size(); ++j) p[i + j] += a[i] * b[j];
  return p;
}

inline size_t reverse_bits(size_t v, unsigned bits) {
  size_t r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((v >> i) & 1) << (bits - 1 - i);
  return r;
}

template <class Rng>
std::vector<fr_t> random_vec(Rng& rng, size_t n) {
  std::vector<fr_t> v(n);
  for (auto& e : v) e = fr_t::random(rng);
  return v;
}

}  // namespace cuzk::poly::naive
