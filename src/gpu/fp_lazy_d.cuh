#pragma once
// BLS12-381 Fp on the device with values kept in [0, 2p) instead of [0, p):
// the same Montgomery form and limbs as fp_d, congruent values, but no
// product ends with the conditional subtraction. Fp leaves room for it:
// 4p < R = 2^384 (R/p ≈ 9.85), so for a, b < 2p the CIOS and SOS results
// (a·b + M·p)/R stay below 4p²/R + p < 1.41p (mont_d::mul_cios<false>,
// reduce_wide<false>). Sums and differences reduce by 2p (one subtraction or
// addition chain and a select, as fp_d's do by p), so every operation takes
// and returns values below 2p and no formula needs its own bound.
//
// Equality is congruence: x - y below 2p is 0 or p when x ≡ y. canonical()
// gives fp_d's bytes (the host's); the MSM converts its results at the host
// boundary. The G1 MSM runs over it (field_of in msm_impl.cuh): it saves the
// ten conditional subtractions of an XYZZ mixed addition's products, 3.3-3.5 %
// of a whole MSM on an H100 (BENCHMARKS.md, 2026-12-07).
//
// Host-compilable like mont_d (CI compares it with fp_d and the host field).
#include "gpu/fp_d.cuh"

namespace cuzk::gpu {

// fused (fp_lazy_d): a·b - c·d in one Montgomery reduction (mul_sub_mul,
// which xyzz_d's formulas use for their Y coordinates; 12 reduction rows of
// 24 IMADs saved per formula); fp_lazy_unfused_d has no mul_sub_mul, so the
// formulas take two products and a subtraction (the same values; msm_timer
// and the probes compare the two). On an H100 the fused form gave 2.04
// against 1.93 G mixed additions/s and a G1 MSM 4.3-4.6 % faster.
template <bool fused>
struct alignas(16) fp_lazy_base_d {
  static constexpr int n = fp_d::n;
  using limbs32 = fp_d::limbs32;

  static constexpr limbs32 modulus() { return fp_d::split(ff::fp_params::modulus); }
  static constexpr limbs32 twice_modulus() {
    constexpr limbs32 p = modulus();
    limbs32 r{};
    uint32_t carry = 0;
    for (int i = 0; i < n; ++i) {
      r.v[i] = (p.v[i] << 1) | carry;
      carry = p.v[i] >> 31;
    }
    return r;
  }

  fp_d v;  // congruent to the value, below 2p

  CUZK_HD static fp_lazy_base_d zero() { return {fp_d::zero()}; }
  CUZK_HD static fp_lazy_base_d one() { return {fp_d::one()}; }
  // Every fp_d value (below p) is a valid fp_lazy_base_d value.
  CUZK_HD static fp_lazy_base_d of(const fp_d& x) { return {x}; }

  // The fully reduced value: fp_d's bytes.
  CUZK_HD fp_d canonical() const {
    fp_d r = v;
    fp_d::reduce_once(r.l);
    return r;
  }
  // 0 or p.
  CUZK_HD bool is_zero() const {
    constexpr limbs32 p = modulus();
    uint32_t z = 0, q = 0;
CUZK_UNROLL
    for (int i = 0; i < n; ++i) {
      z |= v.l[i];
      q |= v.l[i] ^ p.v[i];
    }
    return z == 0 || q == 0;
  }
  CUZK_HD bool operator==(const fp_lazy_base_d& b) const { return (*this - b).is_zero(); }
  CUZK_HD bool operator!=(const fp_lazy_base_d& b) const { return !(*this == b); }

  // a + b < 4p < 2^(32n), then minus 2p when at least 2p.
  CUZK_HD friend fp_lazy_base_d operator+(const fp_lazy_base_d& a, const fp_lazy_base_d& b) {
    constexpr limbs32 p2 = twice_modulus();
    fp_lazy_base_d r;
    carry_chain c;
    r.v.l[0] = c.add_cc(a.v.l[0], b.v.l[0]);
CUZK_UNROLL
    for (int i = 1; i < n - 1; ++i) r.v.l[i] = c.addc_cc(a.v.l[i], b.v.l[i]);
    r.v.l[n - 1] = c.addc(a.v.l[n - 1], b.v.l[n - 1]);
    uint32_t d[n];
    carry_chain s;
    d[0] = s.sub_cc(r.v.l[0], p2.v[0]);
CUZK_UNROLL
    for (int i = 1; i < n; ++i) d[i] = s.subc_cc(r.v.l[i], p2.v[i]);
    const uint32_t borrow = s.subc(0, 0);  // all ones when the sum is below 2p
CUZK_UNROLL
    for (int i = 0; i < n; ++i) r.v.l[i] = borrow ? r.v.l[i] : d[i];
    return r;
  }

  // a - b in (-2p, 2p), plus 2p when negative.
  CUZK_HD friend fp_lazy_base_d operator-(const fp_lazy_base_d& a, const fp_lazy_base_d& b) {
    constexpr limbs32 p2 = twice_modulus();
    fp_lazy_base_d r;
    carry_chain c;
    r.v.l[0] = c.sub_cc(a.v.l[0], b.v.l[0]);
CUZK_UNROLL
    for (int i = 1; i < n; ++i) r.v.l[i] = c.subc_cc(a.v.l[i], b.v.l[i]);
    const uint32_t mask = c.subc(0, 0);
    r.v.l[0] = c.add_cc(r.v.l[0], p2.v[0] & mask);
CUZK_UNROLL
    for (int i = 1; i < n - 1; ++i) r.v.l[i] = c.addc_cc(r.v.l[i], p2.v[i] & mask);
    r.v.l[n - 1] = c.addc(r.v.l[n - 1], p2.v[n - 1] & mask);
    return r;
  }

  CUZK_HD fp_lazy_base_d operator-() const { return zero() - *this; }
  CUZK_HD friend fp_lazy_base_d operator*(const fp_lazy_base_d& a, const fp_lazy_base_d& b) {
    return {fp_d::mul_cios<false>(a.v, b.v)};
  }
  CUZK_HD fp_lazy_base_d sqr() const { return {v.sqr_sos<false>()}; }
  CUZK_HD fp_lazy_base_d dbl() const { return *this + *this; }
  CUZK_HD fp_lazy_base_d& operator+=(const fp_lazy_base_d& b) { return *this = *this + b; }
  CUZK_HD fp_lazy_base_d& operator-=(const fp_lazy_base_d& b) { return *this = *this - b; }
  CUZK_HD fp_lazy_base_d& operator*=(const fp_lazy_base_d& b) { return *this = *this * b; }

  // a·b - c·d (fused only): c's negation 2p - c is in (0, 2p], and
  // mont_d::mul2_cios<false> keeps (a·b + (2p - c)·d)/R below 2p for inputs
  // up to 2p. 2p - c is a plain subtraction (c < 2p), no correction.
  CUZK_HD static fp_lazy_base_d mul_sub_mul(const fp_lazy_base_d& a, const fp_lazy_base_d& b,
                                            const fp_lazy_base_d& c, const fp_lazy_base_d& d)
    requires fused
  {
    constexpr limbs32 p2 = twice_modulus();
    fp_d nc;
    carry_chain k;
    nc.l[0] = k.sub_cc(p2.v[0], c.v.l[0]);
CUZK_UNROLL
    for (int i = 1; i < n - 1; ++i) nc.l[i] = k.subc_cc(p2.v[i], c.v.l[i]);
    nc.l[n - 1] = k.subc(p2.v[n - 1], c.v.l[n - 1]);
    return {fp_d::mul2_cios<false>(a.v, b.v, nc, d.v)};
  }

  // 1/a (0 for 0): fp_d::inverse of the canonical value (the binary GCD
  // wants its input below p).
  CUZK_HD fp_lazy_base_d inverse() const { return {canonical().inverse()}; }
};
using fp_lazy_d = fp_lazy_base_d<true>;
using fp_lazy_unfused_d = fp_lazy_base_d<false>;
static_assert(sizeof(fp_lazy_d) == sizeof(fp_d) && alignof(fp_lazy_d) == alignof(fp_d));
static_assert(fp_lazy_d::modulus().v[fp_lazy_d::n - 1] < (1u << 30),
              "4p < 2^(32n): sums below 4p never carry out, and products of values below 2p stay below 2p");

}  // namespace cuzk::gpu
