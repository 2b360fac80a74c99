#pragma once
// Device prime field in Montgomery form over 32-bit limbs, the GPU twin of
// ff::mont_field<P>. Same modulus, same R = 2^(64·n_limbs) = 2^(32·n), same
// little-endian limb order and always fully reduced: a host array of
// ff::mont_field<P> is a device array of mont_d<P> byte for byte, so values
// cross PCIe unconverted. All constants are split from the host parameters P,
// the single source of truth.
//
// Compiles as host code too (the PTX instructions are emulated by
// carry_chain), which is how CI checks the algorithm without a GPU.
#include <cstdint>
#include <utility>

#include "ff/mont_field.hpp"
#include "gpu/bingcd_d.cuh"
#include "gpu/carry_chain.cuh"

namespace cuzk::gpu {

// x^e by left-to-right square-and-multiply over the n 32-bit limbs of e
// (least significant first), for any field type with one(), sqr() and *
// (mont_d, fp_lazy_d).
template <class F, int n>
CUZK_HD F pow_by_limbs(const F& x, const uint32_t (&e)[n]) {
  F r = F::one();
  for (int i = n - 1; i >= 0; --i) {
    for (int b = 31; b >= 0; --b) {
      r = r.sqr();
      if ((e[i] >> b) & 1u) r = r * x;
    }
  }
  return r;
}

template <class P>
struct alignas(16) mont_d {
  using host_t = ff::mont_field<P>;
  static constexpr int n = int(2 * P::n_limbs);

  struct limbs32 {
    uint32_t v[n];
  };
  static constexpr limbs32 split(const ff::limbs_t<P::n_limbs>& x) {
    limbs32 r{};
    for (int i = 0; i < n; ++i) r.v[i] = uint32_t(x[size_t(i / 2)] >> (32 * (i % 2)));
    return r;
  }
  // -p^-1 mod 2^32 is the low word of -p^-1 mod 2^64.
  static constexpr uint32_t m_inv = uint32_t(host_t::m_inv);

  uint32_t l[n];

  CUZK_HD static mont_d zero() {
    mont_d r;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) r.l[i] = 0;
    return r;
  }
  CUZK_HD static mont_d one() {
    constexpr limbs32 r1 = split(host_t::r1);
    mont_d r;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) r.l[i] = r1.v[i];
    return r;
  }

  CUZK_HD bool operator==(const mont_d& b) const {
    uint32_t acc = 0;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) acc |= l[i] ^ b.l[i];
    return acc == 0;
  }
  CUZK_HD bool operator!=(const mont_d& b) const { return !(*this == b); }
  CUZK_HD bool is_zero() const { return *this == zero(); }

  // t < 2p -> t mod p. One subtraction chain and a select; no branch.
  CUZK_HD static void reduce_once(uint32_t* t) {
    constexpr limbs32 p = split(P::modulus);
    uint32_t d[n];
    carry_chain c;
    d[0] = c.sub_cc(t[0], p.v[0]);
CUZK_UNROLL
    for (int i = 1; i < n; ++i) d[i] = c.subc_cc(t[i], p.v[i]);
    uint32_t borrow = c.subc(0, 0);  // all ones when t < p
CUZK_UNROLL
    for (int i = 0; i < n; ++i) t[i] = borrow ? t[i] : d[i];
  }

  // Both moduli leave spare top bits (Fr < 2^255, Fp < 2^381), so a + b < 2^(32n) never carries out.
  CUZK_HD friend mont_d operator+(const mont_d& a, const mont_d& b) {
    mont_d r;
    carry_chain c;
    r.l[0] = c.add_cc(a.l[0], b.l[0]);
CUZK_UNROLL
    for (int i = 1; i < n - 1; ++i) r.l[i] = c.addc_cc(a.l[i], b.l[i]);
    r.l[n - 1] = c.addc(a.l[n - 1], b.l[n - 1]);
    reduce_once(r.l);
    return r;
  }

  CUZK_HD friend mont_d operator-(const mont_d& a, const mont_d& b) {
    constexpr limbs32 p = split(P::modulus);
    mont_d r;
    carry_chain c;
    r.l[0] = c.sub_cc(a.l[0], b.l[0]);
CUZK_UNROLL
    for (int i = 1; i < n; ++i) r.l[i] = c.subc_cc(a.l[i], b.l[i]);
    uint32_t mask = c.subc(0, 0);  // all ones when a < b: add p back
    r.l[0] = c.add_cc(r.l[0], p.v[0] & mask);
CUZK_UNROLL
    for (int i = 1; i < n - 1; ++i) r.l[i] = c.addc_cc(r.l[i], p.v[i] & mask);
    r.l[n - 1] = c.addc(r.l[n - 1], p.v[n - 1] & mask);
    return r;
  }

  CUZK_HD mont_d operator-() const { return zero() - *this; }

  // One row of CIOS: t[0..n] += x * y[0..n) over the limbs of one parity
  // (j = first, first + 2, ...): each pair (lo into t[j], hi into t[j+1])
  // uses the same operands, and pairs do not overlap, so the whole row is one
  // carry chain that ptxas turns into a chain of IMAD.WIDE.U32.X; splitting
  // lo and hi halves into separate chains instead cost 2.5x the instructions
  // (1264 vs 544 SASS for the two-multiplication probe loop, sm_90a).
  template <int first, int m = n>
  CUZK_HD static void mad_row(uint32_t* t, const uint32_t* x, uint32_t y, carry_chain& c) {
    t[first] = c.mad_lo_cc(x[first], y, t[first]);
    t[first + 1] = c.madc_hi_cc(x[first], y, t[first + 1]);
CUZK_UNROLL
    for (int j = first + 2; j < m; j += 2) {
      t[j] = c.madc_lo_cc(x[j], y, t[j]);
      t[j + 1] = c.madc_hi_cc(x[j], y, t[j + 1]);
    }
  }

  // The same row for m·p with the modulus limbs known at compile time: a limb
  // 1 needs no product (m·1), a limb 2^32 - 1 neither (m·2^32 - m, whose
  // halves mlo = -m and mhi = m - [m != 0] the caller computes once). Fr has
  // both (r = ...ffffffff00000001): 16 of 128 products per multiplication move
  // to the integer ALU, 54.2 -> 58.6 Gmul/s and 2^27 NTT 47.0 -> 44.9 ms on an
  // H200. For Fp this is the plain row.
  template <int first>
  CUZK_HD static void mad_row_p(uint32_t* t, uint32_t m, uint32_t mlo, uint32_t mhi, carry_chain& c) {
    constexpr limbs32 p = split(P::modulus);
CUZK_UNROLL
    for (int j = first; j < n; j += 2) {
      if (p.v[j] == 1u) {
        t[j] = j == first ? c.add_cc(t[j], m) : c.addc_cc(t[j], m);
        t[j + 1] = c.addc_cc(t[j + 1], 0);
      } else if (p.v[j] == 0xffffffffu) {
        t[j] = j == first ? c.add_cc(t[j], mlo) : c.addc_cc(t[j], mlo);
        t[j + 1] = c.addc_cc(t[j + 1], mhi);
      } else {
        t[j] = j == first ? c.mad_lo_cc(m, p.v[j], t[j]) : c.madc_lo_cc(m, p.v[j], t[j]);
        t[j + 1] = c.madc_hi_cc(m, p.v[j], t[j + 1]);
      }
    }
  }

  // t[0, n] one limb down at the end of a CIOS row (t[0] is 0 there).
  CUZK_HD static void shift_down(uint32_t* t) {
CUZK_UNROLL
    for (int j = 0; j < n; ++j) t[j] = t[j + 1];
    t[n] = 0;
  }
  // The value in t[0, n) (below 2p), reduced once below p when full.
  template <bool full>
  CUZK_HD static mont_d take(uint32_t* t) {
    if constexpr (full) reduce_once(t);
    mont_d r;
CUZK_UNROLL
    for (int j = 0; j < n; ++j) r.l[j] = t[j];
    return r;
  }

  // CIOS Montgomery multiplication (Koc, Acar, Kaliski 1996, section 4) with
  // the even/odd split above: per row, the even limbs of a·b_i, then
  // m = t[0]·(-p^-1), the even limbs of m·p (t[0] becomes 0), the odd limbs
  // of both, and a shift by one limb (register renaming once unrolled).
  // Invariant (a, b < p): t < 2p at the end of each row; within a row the sum
  // is below 2p·(2^32 + 1) < 2^(32(n+1)) for both fields, so carries out of
  // t[n] never occur and one conditional subtraction finishes.
  //
  // full = false (fp_lazy_d, Fp only) skips the final subtraction: for a, b
  // < 2p the result (a·b + M·p)/R < 4p²/R + p < 2p when 4p < R, and each
  // row's sum stays below 3p·2^32 < 2^(32(n+1)).
  template <bool full = true>
  CUZK_HD static mont_d mul_cios(const mont_d& a, const mont_d& b) {
    uint32_t t[n + 1];
CUZK_UNROLL
    for (int j = 0; j <= n; ++j) t[j] = 0;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) {
      const uint32_t bi = b.l[i];
      carry_chain c;
      mad_row<0>(t, a.l, bi, c);
      t[n] = c.addc(t[n], 0);
      const uint32_t m = t[0] * m_inv;
      const uint32_t mlo = 0u - m, mhi = m - (m != 0 ? 1u : 0u);
      mad_row_p<0>(t, m, mlo, mhi, c);
      t[n] = c.addc(t[n], 0);
      mad_row<1>(t, a.l, bi, c);
      mad_row_p<1>(t, m, mlo, mhi, c);
      shift_down(t);
    }
    return take<full>(t);
  }

  // (a·b + c·d)/R mod p with one Montgomery reduction for both products:
  // CIOS with two product rows (a·b_i, then c·d_i) before each reduction row.
  // For a·b - c·d the caller passes c's negation (fp_lazy_d::mul_sub_mul):
  // one reduction less than two products and a subtraction.
  // Bounds, for a, b, c, d <= 2p: after row i, t = (a·b[0, i) + c·d[0, i) +
  // M[0, i)·p) / 2^(32i) < a + c + p <= 5p, and within a row the sum is below
  // 5p + 5p·(2^32 - 1) = 5p·2^32 < 2^(32(n+1)) when 5p < 2^(32n) (Fp: p <
  // 2^381; not Fr), so no carry leaves t[n]. The result is below
  // (a·b + c·d)/R + p: with a, b, c, d <= 2p, < 8p²/R + p < 1.82p (Fp: R/p
  // ≈ 9.85), so full = false leaves it below 2p; with every input below p,
  // < 2p²/R + p < 2p, and full = true reduces it once.
  template <bool full = true>
  CUZK_HD static mont_d mul2_cios(const mont_d& a, const mont_d& b, const mont_d& c, const mont_d& d) {
    constexpr limbs32 p = split(P::modulus);
    static_assert(p.v[n - 1] < 0xffffffffu / 5u, "mul2_cios needs 5p < 2^(32n): Fp, not Fr");
    uint32_t t[n + 1];
CUZK_UNROLL
    for (int j = 0; j <= n; ++j) t[j] = 0;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) {
      const uint32_t bi = b.l[i], di = d.l[i];
      carry_chain e;
      mad_row<0>(t, a.l, bi, e);
      t[n] = e.addc(t[n], 0);
      carry_chain f;
      mad_row<0>(t, c.l, di, f);
      t[n] = f.addc(t[n], 0);
      const uint32_t m = t[0] * m_inv;
      const uint32_t mlo = 0u - m, mhi = m - (m != 0 ? 1u : 0u);
      carry_chain g;
      mad_row_p<0>(t, m, mlo, mhi, g);
      t[n] = g.addc(t[n], 0);
      carry_chain h;
      mad_row<1>(t, a.l, bi, h);
      carry_chain k;
      mad_row<1>(t, c.l, di, k);
      carry_chain q;
      mad_row_p<1>(t, m, mlo, mhi, q);
      shift_down(t);
    }
    return take<full>(t);
  }

  // t[0, 2m) = x[0, m) · y[0, m), rows as in the CIOS product (even limbs,
  // then odd). After row i the sum is below 2^(32(m+i+1)), so the odd
  // chain's carry out of t[i + m] is zero.
  template <int m>
  CUZK_HD static void product(uint32_t* t, const uint32_t* x, const uint32_t* y) {
CUZK_UNROLL
    for (int j = 0; j < 2 * m; ++j) t[j] = 0;
CUZK_UNROLL
    for (int i = 0; i < m; ++i) {
      carry_chain c;
      mad_row<0, m>(t + i, x, y[i], c);
      t[i + m] = c.addc(t[i + m], 0);
      mad_row<1, m>(t + i, x, y[i], c);
    }
  }

  // |x - y| over h limbs; returns all ones when x < y.
  template <int h>
  CUZK_HD static uint32_t abs_diff(uint32_t* d, const uint32_t* x, const uint32_t* y) {
    carry_chain c;
    d[0] = c.sub_cc(x[0], y[0]);
CUZK_UNROLL
    for (int j = 1; j < h; ++j) d[j] = c.subc_cc(x[j], y[j]);
    const uint32_t neg = c.subc(0, 0);
    carry_chain k;  // (d ^ neg) - neg: d, or -d when negative
    d[0] = k.sub_cc(d[0] ^ neg, neg);
CUZK_UNROLL
    for (int j = 1; j < h; ++j) d[j] = k.subc_cc(d[j] ^ neg, neg);
    return neg;
  }

  // Montgomery multiplication with the product by one level of subtractive
  // Karatsuba (three half-size products: a0·b0, a1·b1, |a0 - a1|·|b1 - b0|,
  // 3n²/4 limb products instead of n²) and the reduction as in CIOS over the
  // low half, the high half added at the end: u = (lo + M·p) / R <= p and
  // hi < p²/R, so u + hi < p + p·(p/R) < 2p for both fields (p/R < 1/2) and
  // one conditional subtraction finishes. Slower than mul_cios on an H200
  // (the probes *_karatsuba); kept with them and its host test.
  CUZK_HD static mont_d mul_karatsuba(const mont_d& a, const mont_d& b) {
    constexpr int h = n / 2;
    uint32_t t[2 * n];
    product<h>(t, a.l, b.l);
    product<h>(t + n, a.l + h, b.l + h);
    uint32_t da[h], db[h], mid[n];
    const uint32_t sign = abs_diff<h>(da, a.l, a.l + h) ^ abs_diff<h>(db, b.l + h, b.l);
    product<h>(mid, da, db);
    // z1 = a0·b1 + a1·b0 = a0·b0 + a1·b1 + (a0 - a1)(b1 - b0), n + 1 limbs.
    uint32_t z1[n + 1];
    carry_chain c;
    z1[0] = c.add_cc(t[0], t[n]);
CUZK_UNROLL
    for (int j = 1; j < n; ++j) z1[j] = c.addc_cc(t[j], t[n + j]);
    z1[n] = c.addc(0, 0);
    carry_chain d;  // += (mid ^ sign) - sign, that is -mid when the sign is negative
    z1[0] = d.add_cc(z1[0], mid[0] ^ sign);
CUZK_UNROLL
    for (int j = 1; j < n; ++j) z1[j] = d.addc_cc(z1[j], mid[j] ^ sign);
    z1[n] = d.addc(z1[n], sign);
    carry_chain e;
    z1[0] = e.add_cc(z1[0], sign & 1u);
CUZK_UNROLL
    for (int j = 1; j <= n; ++j) z1[j] = e.addc_cc(z1[j], 0);
    carry_chain f;  // t += z1 · 2^(32h)
    t[h] = f.add_cc(t[h], z1[0]);
CUZK_UNROLL
    for (int j = 1; j <= n; ++j) t[h + j] = f.addc_cc(t[h + j], z1[j]);
CUZK_UNROLL
    for (int j = h + n + 1; j < 2 * n; ++j) t[j] = f.addc_cc(t[j], 0);
    return reduce_wide(t);
  }

  // Row i of a square's cross products: t[2i+1 ..] += a_i · a[i+1, n), as
  // two carry chains over the limbs of each parity (as mad_row), each carry
  // taken up to t[n+i+1]: the sum of rows 0..i is below 2^(32(n+i+2)) (row k
  // adds less than 2^(32(n+1+k))), so nothing carries out of that limb.
  template <int i>
  CUZK_HD static void square_row(uint32_t* t, const uint32_t* a) {
    constexpr int len = n - 1 - i, top = len + 1;  // d[top] = t[n + i + 1]
    const uint32_t* x = a + i + 1;
    uint32_t* d = t + 2 * i + 1;
    const uint32_t y = a[i];
CUZK_UNROLL
    for (int parity = 0; parity < 2; ++parity) {
      if (parity >= len) break;
      carry_chain c;
      int last = 0;
CUZK_UNROLL
      for (int j = parity; j < len; j += 2) {
        d[j] = j == parity ? c.mad_lo_cc(x[j], y, d[j]) : c.madc_lo_cc(x[j], y, d[j]);
        d[j + 1] = c.madc_hi_cc(x[j], y, d[j + 1]);
        last = j + 1;
      }
CUZK_UNROLL
      for (int k = last + 1; k < top; ++k) d[k] = c.addc_cc(d[k], 0);
      if (last + 1 <= top) d[top] = c.addc(d[top], 0);
    }
  }
  template <int... i>
  CUZK_HD static void square_rows(uint32_t* t, const uint32_t* a, std::integer_sequence<int, i...>) {
    (square_row<i>(t, a), ...);
  }

  // Montgomery squaring: the cross products a_i·a_j (i < j) once, doubled,
  // plus the squares a_i² (n(n+1)/2 limb products instead of n²), then the
  // reduction of mul_karatsuba (u = (lo + M·p)/R <= p, hi = a²/R < p/2, so
  // u + hi < 2p and one conditional subtraction finishes).
  template <bool full = true>
  CUZK_HD mont_d sqr_sos() const {
    uint32_t t[2 * n];
CUZK_UNROLL
    for (int j = 0; j < 2 * n; ++j) t[j] = 0;
    square_rows(t, l, std::make_integer_sequence<int, n - 1>{});
    {
      carry_chain c;  // t = 2t + the squares, one chain each
      t[0] = c.add_cc(t[0], t[0]);
CUZK_UNROLL
      for (int j = 1; j < 2 * n - 1; ++j) t[j] = c.addc_cc(t[j], t[j]);
      t[2 * n - 1] = c.addc(t[2 * n - 1], t[2 * n - 1]);
    }
    {
      carry_chain c;
      t[0] = c.mad_lo_cc(l[0], l[0], t[0]);
      t[1] = c.madc_hi_cc(l[0], l[0], t[1]);
CUZK_UNROLL
      for (int j = 1; j < n - 1; ++j) {
        t[2 * j] = c.madc_lo_cc(l[j], l[j], t[2 * j]);
        t[2 * j + 1] = c.madc_hi_cc(l[j], l[j], t[2 * j + 1]);
      }
      t[2 * n - 2] = c.madc_lo_cc(l[n - 1], l[n - 1], t[2 * n - 2]);
      t[2 * n - 1] = c.madc_hi_cc(l[n - 1], l[n - 1], t[2 * n - 1]);  // a² < 2^(64n): no carry out
    }
    return reduce_wide<full>(t);
  }

  // (t[0, 2n) / R) mod p for t < p·R (a product of two values below p):
  // the low half reduced row by row as in CIOS, the high half added.
  // full = false skips the final subtraction: the sum is then below
  // p + 1 + t/R, which is < 2p for t < 4p² when 4p < R (fp_lazy_d).
  template <bool full = true>
  CUZK_HD static mont_d reduce_wide(const uint32_t* t) {
    uint32_t u[n + 1];
CUZK_UNROLL
    for (int j = 0; j < n; ++j) u[j] = t[j];
    u[n] = 0;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) {
      carry_chain r;
      const uint32_t m = u[0] * m_inv;
      const uint32_t mlo = 0u - m, mhi = m - (m != 0 ? 1u : 0u);
      mad_row_p<0>(u, m, mlo, mhi, r);
      u[n] = r.addc(u[n], 0);
      mad_row_p<1>(u, m, mlo, mhi, r);
      shift_down(u);
    }
    carry_chain g;
    u[0] = g.add_cc(u[0], t[n]);
CUZK_UNROLL
    for (int j = 1; j < n; ++j) u[j] = g.addc_cc(u[j], t[n + j]);
    return take<full>(u);
  }

  // CIOS: Karatsuba was slower on an H200 (probes BM_gpu_fr_mul / BM_gpu_fp_mul
  // against the _karatsuba ones: 58.7 vs 53.9 and 27.9 vs 25.2 Gmul/s).
  CUZK_HD friend mont_d operator*(const mont_d& a, const mont_d& b) { return mul_cios(a, b); }

  CUZK_HD mont_d& operator+=(const mont_d& b) { return *this = *this + b; }
  CUZK_HD mont_d& operator-=(const mont_d& b) { return *this = *this - b; }
  CUZK_HD mont_d& operator*=(const mont_d& b) { return *this = *this * b; }
  // The dedicated square: 30.5 against 27.1 G Fp squarings/s for x·x by CIOS on an
  // H200 (probes BM_gpu_fp_sqr / BM_gpu_fp_sqr_by_mul, 2026-12-05).
  CUZK_HD mont_d sqr() const { return sqr_sos(); }
  CUZK_HD mont_d dbl() const { return *this + *this; }

  // 1/a, and 0 for 0, by the binary GCD of bingcd_d.cuh (~60 product-
  // equivalents by count against Fermat's ~420), for normalizing one point
  // per thread where no batch is at hand; Fermat where its check fails.
  CUZK_HD mont_d inverse() const {
    mont_d r;
    return try_inverse(r) ? r : fermat_inverse();
  }

  // The binary GCD's 1/a into r; false (r unspecified) for 0, or if its steps
  // did not end at gcd 1. y^-1 = v·2^N as integers, so in Montgomery form the
  // result is mont(v, 2^N·R^3 mod p) = v·2^N·R² = (a/R)^-1·R.
  CUZK_HD bool try_inverse(mont_d& r) const {
    constexpr limbs32 mod = split(P::modulus);
    constexpr uint32_t N = bingcd::outer_steps(ff::big_num_bits(P::modulus));
    constexpr limbs32 scale = split(ff::big_pow2_mod(N + 3 * 32 * n, P::modulus));
    mont_d v, k;
    const bool ok = bingcd::steps<n>(l, mod.v, m_inv, N, v.l);
CUZK_UNROLL
    for (int i = 0; i < n; ++i) k.l[i] = scale.v[i];
    r = mul_cios(v, k);
    return ok;
  }

  // a^(p-2) = 1/a by Fermat, and 0 for 0: ~380 squarings and ~190 products.
  CUZK_HD mont_d fermat_inverse() const {
    constexpr limbs32 e = inverse_exponent();
    return pow_by_limbs(*this, e.v);
  }

  // p - 2, the Fermat exponent, over 32-bit limbs.
  static constexpr limbs32 inverse_exponent() {
    static_assert(P::modulus[0] >= 2, "p - 2 without a borrow");
    auto e = P::modulus;
    e[0] -= 2;
    return split(e);
  }
};

}  // namespace cuzk::gpu
