#pragma once
// Modular inversion by a binary GCD over approximations (T. Pornin, "Optimized
// Binary GCD for Modular Inversion", IACR ePrint 2020/972): mont_d::inverse
// on the device and, compiled as host code, in CI. This header works on raw
// limbs; mont_d adds the Montgomery scaling.
//
// Why: Fermat's a^(p-2) costs ~380 squarings and ~190 products for Fp (~420
// product-equivalents), which was most of a GPU setup point (fixed_base.cu: 32
// mixed additions, then one inversion) and made batched affine sums need ~100
// pending additions per thread (msm_lanes.cuh). This inversion costs ~60
// product-equivalents by count: 25 outer steps, each 31
// cheap steps on 64-bit approximations of a and b, then one linear
// combination of the full values (a, b) and of the Bezout cofactors (u, v),
// the latter divided by 2^32 Montgomery-style so they stay below p.
//
// The loop is branch-free (masks and selects), so the lanes of a warp stay
// in step whatever their inputs. The result is checked (b must end at 1, a
// at 0); a failure, which the bound 31·25 >= 2·381 - 1 steps rules out for
// invertible inputs, falls back to Fermat, and 0 gives 0 as Fermat does.
// Plain C++ on 64-bit integers (no carry-chain PTX), so the host emulation is
// the device's code.
//
// Invariants (t = 31 × steps so far, s = 32 × steps so far):
//   a·2^t ≡ u·2^s·y and b·2^t ≡ v·2^s·y (mod m),
// so when b = 1: 1/y = v·2^(s - t) = v·2^N for N outer steps.
#include <cstddef>
#include <cstdint>

#include "gpu/carry_chain.cuh"

namespace cuzk::gpu::bingcd {

CUZK_HD uint32_t clz32(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return uint32_t(__clz(int(x)));
#else
  return x == 0 ? 32u : uint32_t(__builtin_clz(x));
#endif
}

// Bits [s, s + 33) of x (n limbs; 31 <= s, s + 33 <= 32·n), without a
// run-time index into x (which would put it in local memory on the device).
template <int n>
CUZK_HD uint64_t top33(const uint32_t* x, uint32_t s) {
  const uint32_t w = s / 32, sh = s % 32;
  uint32_t lo = 0, hi = 0;
CUZK_UNROLL
  for (int i = 0; i < n; ++i) {
    lo = uint32_t(i) == w ? x[i] : lo;
    hi = uint32_t(i) == w + 1 ? x[i] : hi;
  }
  const uint64_t v = (uint64_t(hi) << 32 | lo) >> sh;
  // sh + 33 <= 64 always, so two limbs hold the 33 bits.
  return v & ((uint64_t(1) << 33) - 1);
}

// t = x·f + y·g for |f| + |g| <= 2^31: n limbs into t, the signed word above
// them returned.
template <int n>
CUZK_HD int64_t lincomb(const uint32_t* x, const uint32_t* y, int64_t f, int64_t g, uint32_t* t) {
  int64_t acc = 0;
CUZK_UNROLL
  for (int i = 0; i < n; ++i) {
    // |x_i·f + y_i·g| <= (2^32 - 1)·2^31 and |acc| < 2^32: no overflow.
    acc += int64_t(x[i]) * f + int64_t(y[i]) * g;
    t[i] = uint32_t(acc);
    acc >>= 32;  // arithmetic
  }
  return acc;
}

// (x·f + y·g) / 2^31 for |f| + |g| <= 2^31, exact by construction of f, g;
// the magnitude into r, its sign returned (true: negative).
template <int n>
CUZK_HD bool lincomb_shift31(const uint32_t* x, const uint32_t* y, int64_t f, int64_t g, uint32_t* r) {
  uint32_t t[n];
  const int64_t acc = lincomb<n>(x, y, f, g, t);
  // The value is t + acc·2^(32n); shift right by 31 (the low 31 bits are 0).
CUZK_UNROLL
  for (int i = 0; i < n - 1; ++i) r[i] = (t[i] >> 31) | (t[i + 1] << 1);
  r[n - 1] = (t[n - 1] >> 31) | (uint32_t(acc) << 1);
  const bool neg = acc < 0;
  // Two's complement magnitude when negative.
  uint32_t mask = neg ? ~0u : 0u;
  uint64_t c = neg ? 1 : 0;
CUZK_UNROLL
  for (int i = 0; i < n; ++i) {
    c += uint64_t(r[i] ^ mask);
    r[i] = uint32_t(c);
    c >>= 32;
  }
  return neg;
}

// (x·f + y·g) / 2^32 mod m for x, y < m and |f| + |g| <= 2^31 (a
// Montgomery step: q·m is added to clear the low word), result below m.
template <int n>
CUZK_HD void lincomb_mod(const uint32_t* x, const uint32_t* y, int64_t f, int64_t g, const uint32_t* m,
                         uint32_t m_inv, uint32_t* r) {
  uint32_t t[n];
  int64_t acc = lincomb<n>(x, y, f, g, t);
  const uint32_t q = t[0] * m_inv;  // t + q·m ≡ 0 (mod 2^32)
  uint64_t c = 0;
CUZK_UNROLL
  for (int i = 0; i < n; ++i) {
    c += uint64_t(q) * m[i] + t[i];
    t[i] = uint32_t(c);
    c >>= 32;
  }
  acc += int64_t(c);  // the top word, signed: the value is in (-m/2, 3m/2)
CUZK_UNROLL
  for (int i = 0; i < n - 1; ++i) r[i] = t[i + 1];
  r[n - 1] = uint32_t(acc);
  const bool neg = (acc >> 32) < 0;
  // Negative: add m. Otherwise subtract m unless that borrows.
  uint32_t d[n];
  uint64_t cc = 0;
  int64_t b = 0;
CUZK_UNROLL
  for (int i = 0; i < n; ++i) {
    cc += uint64_t(r[i]) + m[i];
    const uint32_t plus = uint32_t(cc);
    cc >>= 32;
    b += int64_t(r[i]) - int64_t(m[i]);
    const uint32_t minus = uint32_t(b);
    b >>= 32;
    d[i] = neg ? plus : minus;
  }
  const bool keep = !neg && b < 0;  // r < m already
CUZK_UNROLL
  for (int i = 0; i < n; ++i) r[i] = keep ? r[i] : d[i];
}

// Outer steps for a modulus of `bits` bits: 31 inner steps each, at least
// 2·bits - 1 in all.
constexpr uint32_t outer_steps(size_t bits) { return uint32_t((2 * bits - 1 + 30) / 31); }

// The steps for y (n limbs, below the odd modulus m of N outer steps): v with
// y^-1 = v·2^N (mod m), v below m. False when they did not end at gcd 1: y
// = 0, or a bound broken (mont_d::inverse then falls back to Fermat).
template <int n>
CUZK_HD bool steps(const uint32_t* y, const uint32_t* mod, uint32_t m_inv, uint32_t N, uint32_t* v) {
  uint32_t a[n], b[n], u[n];
CUZK_UNROLL
  for (int i = 0; i < n; ++i) {
    a[i] = y[i];
    b[i] = mod[i];
    u[i] = i == 0 ? 1u : 0u;
    v[i] = 0;
  }
  for (uint32_t outer = 0; outer < N; ++outer) {
    // Approximations: the low 31 bits and the top 33 of the longer value's length.
    uint32_t len = 0;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) {
      const uint32_t w = a[i] | b[i];
      len = w != 0 ? uint32_t(32 * i + 32) - clz32(w) : len;
    }
    const uint32_t s = (len > 64 ? len : 64) - 33;
    uint64_t xa = (a[0] & 0x7fffffffu) | (top33<n>(a, s) << 31);
    uint64_t xb = (b[0] & 0x7fffffffu) | (top33<n>(b, s) << 31);
    int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
    for (int j = 0; j < 31; ++j) {
      const uint64_t odd = 0 - (xa & 1);
      const uint64_t swap = odd & (0 - uint64_t(xa < xb));
      const uint64_t tx = (xa ^ xb) & swap;
      xa ^= tx;
      xb ^= tx;
      const int64_t sw = int64_t(swap);
      const int64_t tf = (f0 ^ f1) & sw, tg = (g0 ^ g1) & sw;
      f0 ^= tf;
      f1 ^= tf;
      g0 ^= tg;
      g1 ^= tg;
      const int64_t od = int64_t(odd);
      xa -= xb & odd;
      f0 -= f1 & od;
      g0 -= g1 & od;
      xa >>= 1;
      f1 <<= 1;
      g1 <<= 1;
    }
    uint32_t na[n], nb[n];
    const bool neg_a = lincomb_shift31<n>(a, b, f0, g0, na);
    const bool neg_b = lincomb_shift31<n>(a, b, f1, g1, nb);
    if (neg_a) f0 = -f0, g0 = -g0;
    if (neg_b) f1 = -f1, g1 = -g1;
    uint32_t nu[n], nv[n];
    lincomb_mod<n>(u, v, f0, g0, mod, m_inv, nu);
    lincomb_mod<n>(u, v, f1, g1, mod, m_inv, nv);
CUZK_UNROLL
    for (int i = 0; i < n; ++i) {
      a[i] = na[i];
      b[i] = nb[i];
      u[i] = nu[i];
      v[i] = nv[i];
    }
  }
  uint32_t bad = b[0] ^ 1u;
CUZK_UNROLL
  for (int i = 0; i < n; ++i) bad |= a[i] | (i > 0 ? b[i] : 0u);
  return bad == 0;
}

}  // namespace cuzk::gpu::bingcd
