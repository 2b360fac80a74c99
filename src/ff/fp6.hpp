#pragma once
// Fp6 = Fp2[v] / (v^3 - xi), xi = u + 1: the middle of the standard BLS12-381
// tower (blst, zkcrypto, noble use the same one, so known answers compare
// coefficient by coefficient).
#include <array>

#include "ff/fp2.hpp"

namespace cuzk::ff {

namespace detail {

// a / d for a single-limb divisor (remainder dropped); only used on constants.
template <size_t N>
constexpr limbs_t<N> big_div_small(limbs_t<N> a, uint64_t d) {
  u128 rem = 0;
  for (size_t i = N; i-- > 0;) {
    u128 cur = (rem << 64) | a[i];
    a[i] = uint64_t(cur / d);
    rem = cur % d;
  }
  return a;
}

// xi^((p^k - 1) / d) for k = 0 .. Count-1. Since (p^k - 1)/d = p (p^(k-1) - 1)/d
// + (p - 1)/d and the p-th power in Fp2 is conjugation, one pow with a 381-bit
// exponent and Count-1 multiplications give the whole table (d divides p - 1).
template <size_t Count>
std::array<fp2_t, Count> xi_frobenius_powers(uint64_t d) {
  limbs_t<fp_t::n_limbs> e = fp_t::modulus;
  e[0] -= 1;
  e = big_div_small(e, d);
  const fp2_t g1 = fp2_t::one().mul_by_nonresidue().pow(e);
  std::array<fp2_t, Count> out;
  out[0] = fp2_t::one();
  for (size_t k = 1; k < Count; ++k) out[k] = out[k - 1].conj() * g1;
  return out;
}

}  // namespace detail

struct fp6_t {
  fp2_t c0, c1, c2;

  static constexpr fp6_t zero() { return {}; }
  static constexpr fp6_t one() { return {fp2_t::one(), fp2_t::zero(), fp2_t::zero()}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  constexpr bool operator==(const fp6_t&) const = default;

  constexpr fp6_t& operator+=(const fp6_t& b) { c0 += b.c0; c1 += b.c1; c2 += b.c2; return *this; }
  constexpr fp6_t& operator-=(const fp6_t& b) { c0 -= b.c0; c1 -= b.c1; c2 -= b.c2; return *this; }
  // Karatsuba, 6 Fp2 multiplications: Devegili, O hEigeartaigh, Scott, Dahab,
  // "Multiplication and squaring on pairing-friendly fields", 2006, section 4.
  constexpr fp6_t& operator*=(const fp6_t& b) {
    fp2_t v0 = c0 * b.c0, v1 = c1 * b.c1, v2 = c2 * b.c2;
    fp2_t t0 = ((c1 + c2) * (b.c1 + b.c2) - v1 - v2).mul_by_nonresidue() + v0;
    fp2_t t1 = (c0 + c1) * (b.c0 + b.c1) - v0 - v1 + v2.mul_by_nonresidue();
    fp2_t t2 = (c0 + c2) * (b.c0 + b.c2) - v0 - v2 + v1;
    c0 = t0;
    c1 = t1;
    c2 = t2;
    return *this;
  }
  constexpr fp6_t& operator*=(const fp2_t& b) { c0 *= b; c1 *= b; c2 *= b; return *this; }
  friend constexpr fp6_t operator+(fp6_t a, const fp6_t& b) { return a += b; }
  friend constexpr fp6_t operator-(fp6_t a, const fp6_t& b) { return a -= b; }
  friend constexpr fp6_t operator*(fp6_t a, const fp6_t& b) { return a *= b; }
  friend constexpr fp6_t operator*(fp6_t a, const fp2_t& b) { return a *= b; }
  constexpr fp6_t operator-() const { return {-c0, -c1, -c2}; }

  constexpr fp6_t dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  // Multiplication by v, the quadratic non-residue of Fp12 = Fp6[w]/(w^2 - v).
  constexpr fp6_t mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }

  // * (b0 + b1 v): 5 Fp2 multiplications instead of 6 (sparse Miller-loop lines).
  constexpr fp6_t mul_by_01(const fp2_t& b0, const fp2_t& b1) const {
    fp2_t v0 = c0 * b0, v1 = c1 * b1;
    return {((c1 + c2) * b1 - v1).mul_by_nonresidue() + v0,
            (c0 + c1) * (b0 + b1) - v0 - v1,
            (c0 + c2) * b0 - v0 + v1};
  }
  // * (b1 v): 3 Fp2 multiplications.
  constexpr fp6_t mul_by_1(const fp2_t& b1) const {
    return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1};
  }

  // CH-SQR2 of Chung and Hasan, "Asymmetric squaring formulae", ARITH 2007:
  // 3 Fp2 multiplications and 2 squarings.
  constexpr fp6_t sqr() const {
    fp2_t s0 = c0.sqr();
    fp2_t s1 = (c0 * c1).dbl();
    fp2_t s2 = (c0 - c1 + c2).sqr();
    fp2_t s3 = (c1 * c2).dbl();
    fp2_t s4 = c2.sqr();
    return {s3.mul_by_nonresidue() + s0, s4.mul_by_nonresidue() + s1, s1 + s2 + s3 - s0 - s4};
  }

  // Adjugate over the norm to Fp2: one Fp2 inversion, 9 multiplications and
  // 3 squarings (Scott, "Implementing cryptographic pairings", 2007, section 3).
  constexpr fp6_t inverse() const {
    fp2_t t0 = c0.sqr() - (c1 * c2).mul_by_nonresidue();
    fp2_t t1 = c2.sqr().mul_by_nonresidue() - c0 * c1;
    fp2_t t2 = c1.sqr() - c0 * c2;
    fp2_t den = c0 * t0 + (c2 * t1 + c1 * t2).mul_by_nonresidue();
    fp2_t inv = den.inverse();
    return {t0 * inv, t1 * inv, t2 * inv};
  }

  // x^(p^power). v^(p^k) = v * xi^((p^k - 1)/3); the cycle length is 6.
  fp6_t frobenius_map(size_t power) const {
    static const auto g1 = detail::xi_frobenius_powers<6>(3);
    static const auto g2 = [] {
      auto t = g1;
      for (auto& g : t) g = g.sqr();
      return t;
    }();
    size_t k = power % 6;
    if (k == 0) return *this;
    fp2_t a0 = c0, a1 = c1, a2 = c2;
    if (k & 1) {
      a0 = a0.conj();
      a1 = a1.conj();
      a2 = a2.conj();
    }
    return {a0, a1 * g1[k], a2 * g2[k]};
  }

  template <size_t M>
  constexpr fp6_t pow(const limbs_t<M>& e) const {
    fp6_t r = one();
    for (size_t i = big_num_bits(e); i-- > 0;) {
      r = r.sqr();
      if (big_bit(e, i)) r *= *this;
    }
    return r;
  }

  template <class Rng>
  static fp6_t random(Rng& rng) {
    fp2_t a = fp2_t::random(rng);
    fp2_t b = fp2_t::random(rng);
    return {a, b, fp2_t::random(rng)};
  }
};

static_assert(sizeof(fp6_t) == 288);

}  // namespace cuzk::ff
