#pragma once
// Plain CPU transforms that the GPU results are compared with, bit for bit:
// iterative radix-2 Cooley-Tukey after a bit reversal (itself checked against
// the quadratic DFT in test_gpu_ntt.cpp), plus the coset and 1/n scalings.
#include <random>
#include <utility>
#include <vector>

#include "ff/fr.hpp"
#include "gpu/ntt.hpp"

namespace cuzk::gpu::test {

using ff::fr_t;

inline void ref_bit_reverse(std::vector<fr_t>& x) {
  const size_t n = x.size();
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
}

// X[k] = sum_j x[j] w^(jk), w = omega or omega^-1; Cooley-Tukey after a bit reversal.
inline void ref_dft(std::vector<fr_t>& x, bool inverse) {
  const size_t n = x.size();
  uint32_t log_n = 0;
  while ((size_t(1) << log_n) < n) ++log_n;
  ref_bit_reverse(x);
  for (uint32_t s = 1; s <= log_n; ++s) {
    const size_t m = size_t(1) << s;
    fr_t wm = cuzk::ff::fr_root_of_unity(s);
    if (inverse) wm = wm.inverse();
    for (size_t k = 0; k < n; k += m) {
      fr_t w = fr_t::one();
      for (size_t j = 0; j < m / 2; ++j) {
        fr_t t = w * x[k + j + m / 2];
        x[k + j + m / 2] = x[k + j] - t;
        x[k + j] += t;
        w *= wm;
      }
    }
  }
}

inline void scale_by_powers(std::vector<fr_t>& x, fr_t c, const fr_t& r) {
  for (auto& v : x) {
    v *= c;
    c *= r;
  }
}

inline void ref_ntt(std::vector<fr_t>& x, ntt_dir dir, bool coset) {
  const fr_t g = fr_t::from_u64(cuzk::ff::fr_generator);
  if (dir == ntt_dir::forward) {
    if (coset) scale_by_powers(x, fr_t::one(), g);
    ref_dft(x, false);
  } else {
    ref_dft(x, true);
    const fr_t n_inv = fr_t::from_u64(x.size()).inverse();
    scale_by_powers(x, n_inv, coset ? g.inverse() : fr_t::one());
  }
}

inline std::vector<fr_t> ref_compute_h(std::vector<fr_t> a, std::vector<fr_t> b, std::vector<fr_t> c) {
  for (auto* v : {&a, &b, &c}) {
    ref_ntt(*v, ntt_dir::inverse, false);
    ref_ntt(*v, ntt_dir::forward, true);
  }
  fr_t z = fr_t::from_u64(cuzk::ff::fr_generator).pow(uint64_t(a.size())) - fr_t::one();
  fr_t z_inv = z.inverse();
  for (size_t i = 0; i < a.size(); ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv;
  ref_ntt(a, ntt_dir::inverse, true);
  return a;
}

inline std::vector<fr_t> random_vec(std::mt19937_64& rng, size_t n) {
  std::vector<fr_t> v(n);
  for (auto& e : v) e = fr_t::random(rng);
  return v;
}

// First index where two vectors differ, or -1.
inline long first_diff(const std::vector<fr_t>& a, const std::vector<fr_t>& b) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(a[i] == b[i])) return long(i);
  }
  return -1;
}

}  // namespace cuzk::gpu::test
