#pragma once
// A prime field on the FP64 pipe: N limbs of 52 bits held as doubles, so that
// limb products run as DFMA beside the integer pipe that mont_d keeps busy
// (issue 3 for Fr, issue 19 item 2 for Fp). fr52_d: Fr in 5 limbs; fp52_d:
// Fp in 8. The method is Emmart, Zheng and Weems, "Faster Modular
// Exponentiation Using Double Precision Floating Point Arithmetic on the GPU",
// ARITH 2018: for integers a, b < 2^52,
//   h = fma_rz(a, b, 2^104)            = 2^104 + H·2^52  (the binade's ulp is 2^52: rz keeps floor(a·b / 2^52))
//   l = fma(a, b, (2^104 + 2^52) - h)  = 2^52 + L        (exact: an integer in [2^52, 2^53))
// with a·b = H·2^52 + L. Both exponents are constant, so bits(h) = bits(2^104)
// + H and bits(l) = bits(2^52) + L: columns are summed as 64-bit integers of
// the raw bits, and the exponents' total, known per column at compile time,
// is subtracted once (the column starts at minus it).
//
// Montgomery form with R' = 2^(52 N) (not mont_d's 2^(64 W)): x is held as
// x·R' mod m, in [0, 2m) (lazy: no final subtraction; see operator*).
// Conversions (not for hot loops): from mont_d, x·2^(64 W) -> x·R' is a
// multiplication by 2^(2·52 N - 64 W) mod m; back, by 2^(64 W) mod m, then one
// conditional subtraction.
//
// Cost model for Fr (5 limbs), per multiplication in the probe loop (sm_90a,
// CUDA 13.0): 100 DFMA + 60 DADD and ~165 integer instructions (115 IADD3,
// 19 LOP3, 20 IMAD, 9 SHF), 324 in all; fr_d takes 261, 162 of them IMAD. With
// 16 lanes per SM sub-partition and clock for the FP64, ALU and IMAD pipes
// (IMAD.WIDE/HI at half rate) and one issue per clock, fr_d is IMAD-bound at
// ~544 clocks per warp-multiplication (61.5 Gmul/s on an H200; 58.6 measured)
// and fr52_d issue/FP64-bound at ~324 (103 Gmul/s at most). Measured 61.7 on
// an H100, latency-bound (ncu: issue slots 60 %; bench/gpu/NOTES.md).
//
// Compiles as host code too, with an exact emulation of DFMA.RZ for the
// operands used here, so the algorithm is checked without a GPU.
#include <cstdint>
#if !defined(__CUDA_ARCH__)
#include <bit>
#include <cmath>
#endif

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gpu/fp_d.cuh"
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

// P: the field's parameters (ff::fr_params, ff::fp_params); N: 52-bit limbs,
// with 4m < 2^(52 N) (the lazy bound below) and W = P::n_limbs 64-bit words.
template <class P, int N>
struct alignas(8) f52_d {
  static constexpr int n = N;
  static constexpr int words = int(P::n_limbs);
  static constexpr uint64_t mask = (uint64_t(1) << 52) - 1;
  using host_t = ff::mont_field<P>;
  using mont_t = mont_d<P>;
  static_assert(host_t::bits + 2 <= 52 * N, "f52_d: the lazy bound needs 4m < 2^(52 N)");
  static_assert(52 * (N - 1) < 64 * words, "f52_d: more limbs than the field's words need");

  struct limbs52 {
    uint64_t v[n];
  };
  static constexpr limbs52 split(const ff::limbs_t<P::n_limbs>& x) {
    limbs52 r{};
    for (int i = 0; i < n; ++i) {
      const int w = 52 * i / 64, s = 52 * i % 64;
      uint64_t v = x[size_t(w)] >> s;
      if (s > 12 && w + 1 < words) v |= x[size_t(w) + 1] << (64 - s);
      r.v[i] = v & mask;
    }
    return r;
  }
  // -m^-1 mod 2^52 is the low 52 bits of -m^-1 mod 2^64.
  static constexpr uint64_t m_inv = host_t::m_inv & mask;

  double l[n];  // integers in [0, 2^52), least significant first

  // x·R' mod m (in [0, 2m)) from x·2^(64 W) mod m.
  CUZK_HD static f52_d from(const mont_t& x) {
    constexpr limbs52 c = split(ff::big_pow2_mod(2 * 52 * N - 64 * words, P::modulus));
    ff::limbs_t<P::n_limbs> w{};
CUZK_UNROLL
    for (int i = 0; i < words; ++i) w[size_t(i)] = uint64_t(x.l[2 * i]) | uint64_t(x.l[2 * i + 1]) << 32;
    return from_limbs(split(w)) * from_limbs(c);
  }

  // x·2^(64 W) mod m, fully reduced, from x·R' mod m.
  CUZK_HD mont_t to_mont() const {
    constexpr limbs52 c = split(host_t::r1);
    const f52_d y = *this * from_limbs(c);  // < 2m, limbs normalized
    uint64_t w[words];
CUZK_UNROLL
    for (int i = 0; i < words; ++i) w[i] = 0;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) {
      const uint64_t v = uint64_t(y.l[i]);
      const int k = 52 * i / 64, s = 52 * i % 64;
      w[k] |= v << s;
      if (s > 12 && k + 1 < words) w[k + 1] |= v >> (64 - s);
    }
    constexpr ff::limbs_t<P::n_limbs> m = P::modulus;
    uint64_t d[words], borrow = 0;
CUZK_UNROLL
    for (int i = 0; i < words; ++i) {
      d[i] = w[i] - m[size_t(i)] - borrow;
      borrow = (w[i] < m[size_t(i)] || (w[i] == m[size_t(i)] && borrow)) ? 1 : 0;
    }
    mont_t r;
CUZK_UNROLL
    for (int i = 0; i < words; ++i) {
      const uint64_t v = borrow ? w[i] : d[i];  // borrow: w < m already
      r.l[2 * i] = uint32_t(v);
      r.l[2 * i + 1] = uint32_t(v >> 32);
    }
    return r;
  }

  // Montgomery multiplication, product scanning: the n^2 limb products of a·b
  // into 2n columns, then n rows of reduction, each q = t_i·(-m^-1) mod 2^52
  // (integer IMADs: three for the low 64 bits) and the n products q·m_k by
  // DFMA, and the carry t_i >> 52 into t_{i+1}. 2n^2 products, 3 FP64
  // instructions each (2 DFMA, 1 DADD), plus 2n DADD converting q and the
  // result limbs; 4n^2 64-bit integer additions of the columns.
  //
  // Bounds. Every DFMA operand is an integer below 2^52 (limbs normalized, q
  // masked), so H, L < 2^52 and each column, whose true value takes at most
  // 4n of them plus a carry below 2^6, stays below 2^58 for n <= 8: no 64-bit
  // overflow of the true value (the raw sums wrap, the offsets unwrap them).
  // The offsets are multiples of 2^52, so t_i mod 2^52 is right before the
  // last term lands. Result: (a·b + q·m) / R' < a·b / R' + m, and for a, b <
  // 2m that is < (4m / R')·m + m < 2m: the output again lies in [0, 2m) and
  // chains of products need no subtraction (Fr: < 1.125 r; Fp: < 1.0000001 p).
  CUZK_HD friend f52_d operator*(const f52_d& a, const f52_d& b) {
    constexpr limbs52 p = split(P::modulus);
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
      const double q = fp64::to_double((t[i] * m_inv) & mask);
CUZK_UNROLL
      for (int k = 0; k < n; ++k) mad(t[i + k], t[i + k + 1], q, double(p.v[k]));
      t[i + 1] += t[i] >> 52;  // t_i is now a multiple of 2^52
    }
    return upper(t);
  }

  CUZK_HD f52_d& operator*=(const f52_d& b) { return *this = *this * b; }

  // The same product with the reduction interleaved row by row (CIOS order),
  // each row's products held back until the previous row is reduced: row i
  // takes a_i OR (t_{i-1} mod 2^52), which is a_i (t_{i-1} is then a multiple
  // of 2^52) but a dependency the compiler cannot see through. And each mad
  // takes its exponent off as it adds (mad_exact: the 64-bit additions fold
  // the constant, whose low word is 0), so no column starts at an offset.
  // Meant to keep ptxas from issuing all 2n^2 DFMA pairs first, as it may in
  // operator* (Fp: 254 registers, or ~800 bytes of spills at 128); measured,
  // it takes the same registers (BENCHMARKS.md, "Fp on the FP64 pipe"). Same
  // columns, bounds and result as operator*.
  CUZK_HD static f52_d mul_rows(const f52_d& a, const f52_d& b) {
    constexpr limbs52 p = split(P::modulus);
    uint64_t t[2 * n];
CUZK_UNROLL
    for (int j = 0; j < 2 * n; ++j) t[j] = 0;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) {
      const double ai = i == 0 ? a.l[0] : fp64::from_bits(fp64::bits(a.l[i]) | (t[i - 1] & mask));
CUZK_UNROLL
      for (int k = 0; k < n; ++k) mad_exact(t[i + k], t[i + k + 1], ai, b.l[k]);
      const double q = fp64::to_double((t[i] * m_inv) & mask);
CUZK_UNROLL
      for (int k = 0; k < n; ++k) mad_exact(t[i + k], t[i + k + 1], q, double(p.v[k]));
      t[i + 1] += t[i] >> 52;  // t_i is now a multiple of 2^52
    }
    return upper(t);
  }


 private:
  static constexpr uint64_t exp_lo = uint64_t(1023 + 52) << 52;   // bits(2^52): 2^52 + L
  static constexpr uint64_t exp_hi = uint64_t(1023 + 104) << 52;  // bits(2^104): 2^104 + H

  // Products a_i·b_k with i + k = j, for i, k < n.
  static constexpr uint64_t pairs(int j) {
    return j < 0 || j > 2 * n - 2 ? 0 : uint64_t(j < n ? j + 1 : 2 * n - 1 - j);
  }
  // What the raw bits add to column j beyond its value: 2 products per pair
  // (a·b and q·m), each an l into column j and an h into column j + 1.
  static constexpr uint64_t column_offset(int j) { return 2 * pairs(j) * exp_lo + 2 * pairs(j - 1) * exp_hi; }

  CUZK_HD static void mad(uint64_t& lo, uint64_t& hi, double a, double b) {
    const double h = fp64::fma_rz(a, b, 0x1p104);
    const double l = fp64::fma_rn(a, b, (0x1p104 + 0x1p52) - h);  // (1 - H)·2^52: exact
    lo += fp64::bits(l);
    hi += fp64::bits(h);
  }

  // The reduced product from its columns once the low n are reduced: columns
  // n .. 2n-1 normalized to 52-bit limbs (the carries run upwards).
  CUZK_HD static f52_d upper(uint64_t (&t)[2 * n]) {
    f52_d r;
CUZK_UNROLL
    for (int j = n; j < 2 * n - 1; ++j) {
      r.l[j - n] = fp64::to_double(t[j] & mask);
      t[j + 1] += t[j] >> 52;
    }
    r.l[n - 1] = fp64::to_double(t[2 * n - 1]);  // < 2^52: the result is below 2m < 2^(52 (n - 1) + 52)
    return r;
  }

  // mad with the exponents taken off: lo += L, hi += H.
  CUZK_HD static void mad_exact(uint64_t& lo, uint64_t& hi, double a, double b) {
    const double h = fp64::fma_rz(a, b, 0x1p104);
    const double l = fp64::fma_rn(a, b, (0x1p104 + 0x1p52) - h);
    lo += fp64::bits(l) - exp_lo;
    hi += fp64::bits(h) - exp_hi;
  }

  CUZK_HD static f52_d from_limbs(const limbs52& x) {
    f52_d r;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) r.l[i] = fp64::to_double(x.v[i]);
    return r;
  }
};

using fr52_d = f52_d<ff::fr_params, 5>;
using fp52_d = f52_d<ff::fp_params, 8>;

}  // namespace cuzk::gpu
