#pragma once
// BLS12-381 Fr on the FP64 pipe: 5 limbs of 52 bits held as doubles, so that
// limb products run as DFMA beside the integer pipe that fr_d keeps busy
// (issue 3). The method is Emmart, Zheng and Weems, "Faster Modular
// Exponentiation Using Double Precision Floating Point Arithmetic on the GPU",
// ARITH 2018: for integers a, b < 2^52,
//   h = fma_rz(a, b, 2^104)            = 2^104 + H·2^52  (the binade's ulp is 2^52: rz keeps floor(a·b / 2^52))
//   l = fma(a, b, (2^104 + 2^52) - h)  = 2^52 + L        (exact: an integer in [2^52, 2^53))
// with a·b = H·2^52 + L. Both exponents are constant, so bits(h) = bits(2^104)
// + H and bits(l) = bits(2^52) + L: columns are summed as 64-bit integers of
// the raw bits, and the exponents' total, known per column at compile time,
// is subtracted once (the column starts at minus it).
//
// Montgomery form with R' = 2^260 (not fr_d's 2^256): x is held as x·2^260
// mod r, in [0, 2r) (lazy: no final subtraction; see operator*). Conversions
// (not for hot loops): from fr_d, x·2^256 -> x·2^260 is a multiplication by
// 2^264 mod r; back, by 2^256 mod r, then one conditional subtraction.
//
// Cost model, not yet measured. Per multiplication in the probe loop (sm_90a,
// CUDA 13.0): 100 DFMA + 60 DADD and ~165 integer instructions (115 IADD3,
// 19 LOP3, 20 IMAD, 9 SHF), 324 in all; fr_d takes 261, 162 of them IMAD. With
// 16 lanes per SM sub-partition and clock for the FP64, ALU and IMAD pipes
// (IMAD.WIDE/HI at half rate) and one issue per clock, fr_d is IMAD-bound at
// ~544 clocks per warp-multiplication (61.5 Gmul/s on an H200; 58.6 measured)
// and fr52_d issue/FP64-bound at ~324 (103 Gmul/s at most).
//
// Compiles as host code too, with an exact emulation of DFMA.RZ for the
// operands used here, so the algorithm is checked without a GPU.
#include <cstdint>
#if !defined(__CUDA_ARCH__)
#include <bit>
#include <cmath>
#endif

#include "ff/fr.hpp"
#include "gpu/fr_d.cuh"

namespace cuzk::gpu {

namespace fp64 {

CUZK_HD uint64_t bits(double x) {
#if defined(__CUDA_ARCH__)
  return uint64_t(__double_as_longlong(x));
#else
  return std::bit_cast<uint64_t>(x);
#endif
}

CUZK_HD double from_bits(uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double((long long)b);
#else
  return std::bit_cast<double>(b);
#endif
}

// Round to nearest; fr52_d only calls it where the result is exact.
CUZK_HD double fma_rn(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

// Round toward zero. The host twin is exact for what fr52_d gives it:
// a, b, c non-negative integers, a, b < 2^64, a·b + c < 2^128.
CUZK_HD double fma_rz(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rz(a, b, c);
#else
  unsigned __int128 s = (unsigned __int128)uint64_t(a) * uint64_t(b) + (unsigned __int128)c;
  const uint64_t hi = uint64_t(s >> 64);
  const int len = hi ? 64 + std::bit_width(hi) : std::bit_width(uint64_t(s));
  if (len > 53) s &= ~(((unsigned __int128)1 << (len - 53)) - 1);  // keep 53 significant bits
  return double(s);                                                 // now exact
#endif
}

// x < 2^52 as a double: bits(2^52) | x is 2^52 + x. One LOP3 and one DADD
// (I2F.F64 would run on the slower conversion path).
CUZK_HD double to_double(uint64_t x) { return from_bits(bits(0x1p52) | x) - 0x1p52; }

}  // namespace fp64

struct alignas(8) fr52_d {
  static constexpr int n = 5;
  static constexpr uint64_t mask = (uint64_t(1) << 52) - 1;
  using fr_host = ff::fr_t;

  struct limbs52 {
    uint64_t v[n];
  };
  static constexpr limbs52 split(const ff::limbs_t<4>& x) {
    limbs52 r{};
    for (int i = 0; i < n; ++i) {
      const int w = 52 * i / 64, s = 52 * i % 64;
      uint64_t v = x[size_t(w)] >> s;
      if (s > 12 && w + 1 < 4) v |= x[size_t(w) + 1] << (64 - s);
      r.v[i] = v & mask;
    }
    return r;
  }
  // -r^-1 mod 2^52 is the low 52 bits of -r^-1 mod 2^64.
  static constexpr uint64_t m_inv = fr_host::m_inv & mask;

  double l[n];  // integers in [0, 2^52), least significant first

  // x·2^260 mod r (in [0, 2r)) from x·2^256 mod r.
  CUZK_HD static fr52_d from(const fr_d& x) {
    constexpr limbs52 c = split(ff::big_pow2_mod(264, ff::fr_params::modulus));
    ff::limbs_t<4> w{};
CUZK_UNROLL
    for (int i = 0; i < 4; ++i) w[size_t(i)] = uint64_t(x.l[2 * i]) | uint64_t(x.l[2 * i + 1]) << 32;
    return from_limbs(split(w)) * from_limbs(c);
  }

  // x·2^256 mod r, fully reduced, from x·2^260 mod r.
  CUZK_HD fr_d to_fr_d() const {
    constexpr limbs52 c = split(fr_host::r1);
    const fr52_d y = *this * from_limbs(c);  // < 2r, limbs normalized
    uint64_t w[4];
CUZK_UNROLL
    for (int i = 0; i < 4; ++i) w[i] = 0;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) {
      const uint64_t v = uint64_t(y.l[i]);
      const int k = 52 * i / 64, s = 52 * i % 64;
      w[k] |= v << s;
      if (s > 12 && k + 1 < 4) w[k + 1] |= v >> (64 - s);
    }
    constexpr ff::limbs_t<4> m = ff::fr_params::modulus;
    constexpr uint64_t pm[4] = {m[0], m[1], m[2], m[3]};
    uint64_t d[4], borrow = 0;
CUZK_UNROLL
    for (int i = 0; i < 4; ++i) {
      d[i] = w[i] - pm[i] - borrow;
      borrow = (w[i] < pm[i] || (w[i] == pm[i] && borrow)) ? 1 : 0;
    }
    fr_d r;
CUZK_UNROLL
    for (int i = 0; i < 4; ++i) {
      const uint64_t v = borrow ? w[i] : d[i];  // borrow: w < r already
      r.l[2 * i] = uint32_t(v);
      r.l[2 * i + 1] = uint32_t(v >> 32);
    }
    return r;
  }

  // Montgomery multiplication, product scanning: the 25 limb products of a·b
  // into 10 columns, then 5 rows of reduction, each m = t_i·(-r^-1) mod 2^52
  // (integer IMADs: three for the low 64 bits) and the 5 products m·r_k by
  // DFMA, and the carry t_i >> 52 into t_{i+1}. 50 products, 3 FP64
  // instructions each (2 DFMA, 1 DADD), plus 10 DADD converting m and the
  // result limbs; 100 64-bit integer additions of the columns.
  //
  // Bounds. Every DFMA operand is an integer below 2^52 (limbs normalized, m
  // masked), so H, L < 2^52 and each column, whose true value takes at most
  // 20 of them plus a carry below 2^5, stays below 2^57: no 64-bit overflow of
  // the true value (the raw sums wrap, the offsets unwrap them). The offsets
  // are multiples of 2^52, so t_i mod 2^52 is right before the last term lands.
  // Result: (a·b + m·r) / 2^260 < a·b / 2^260 + r, and for a, b < 2r that is
  // < 4r^2 / 2^260 + r < 1.125 r, as r < 2^255: the output again lies in [0, 2r)
  // and chains of products need no subtraction.
  CUZK_HD friend fr52_d operator*(const fr52_d& a, const fr52_d& b) {
    constexpr limbs52 p = split(ff::fr_params::modulus);
    uint64_t t[2 * n];
CUZK_UNROLL
    for (int j = 0; j < 2 * n; ++j) t[j] = 0 - column_offset(j);
CUZK_UNROLL
    for (int i = 0; i < n; ++i) {
CUZK_UNROLL
      for (int k = 0; k < n; ++k) mad(t[i + k], t[i + k + 1], a.l[i], b.l[k]);
    }
CUZK_UNROLL
    for (int i = 0; i < n; ++i) {
      const double m = fp64::to_double((t[i] * m_inv) & mask);
CUZK_UNROLL
      for (int k = 0; k < n; ++k) mad(t[i + k], t[i + k + 1], m, double(p.v[k]));
      t[i + 1] += t[i] >> 52;  // t_i is now a multiple of 2^52
    }
    fr52_d r;
CUZK_UNROLL
    for (int j = n; j < 2 * n - 1; ++j) {
      r.l[j - n] = fp64::to_double(t[j] & mask);
      t[j + 1] += t[j] >> 52;
    }
    r.l[n - 1] = fp64::to_double(t[2 * n - 1]);  // < 2^48: the result is below 2r < 2^256
    return r;
  }

  CUZK_HD fr52_d& operator*=(const fr52_d& b) { return *this = *this * b; }

 private:
  static constexpr uint64_t exp_lo = uint64_t(1023 + 52) << 52;   // bits(2^52): 2^52 + L
  static constexpr uint64_t exp_hi = uint64_t(1023 + 104) << 52;  // bits(2^104): 2^104 + H

  // Products a_i·b_k with i + k = j, for i, k < n.
  static constexpr uint64_t pairs(int j) {
    return j < 0 || j > 2 * n - 2 ? 0 : uint64_t(j < n ? j + 1 : 2 * n - 1 - j);
  }
  // What the raw bits add to column j beyond its value: 2 products per pair
  // (a·b and m·r), each an l into column j and an h into column j + 1.
  static constexpr uint64_t column_offset(int j) { return 2 * pairs(j) * exp_lo + 2 * pairs(j - 1) * exp_hi; }

  CUZK_HD static void mad(uint64_t& lo, uint64_t& hi, double a, double b) {
    const double h = fp64::fma_rz(a, b, 0x1p104);
    const double l = fp64::fma_rn(a, b, (0x1p104 + 0x1p52) - h);  // (1 - H)·2^52: exact
    lo += fp64::bits(l);
    hi += fp64::bits(h);
  }

  CUZK_HD static fr52_d from_limbs(const limbs52& x) {
    fr52_d r;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) r.l[i] = fp64::to_double(x.v[i]);
    return r;
  }
};

}  // namespace cuzk::gpu
