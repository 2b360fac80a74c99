#pragma once
// Fp12 = Fp6[w] / (w^2 - v), so w^6 = xi = u + 1: the top of the standard
// BLS12-381 tower and the target group GT of the pairing.
#include "ff/fp6.hpp"

namespace cuzk::ff {

struct fp12_t {
  fp6_t c0, c1;

  static constexpr fp12_t zero() { return {}; }
  static constexpr fp12_t one() { return {fp6_t::one(), fp6_t::zero()}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  constexpr bool operator==(const fp12_t&) const = default;

  constexpr fp12_t& operator+=(const fp12_t& b) { c0 += b.c0; c1 += b.c1; return *this; }
  constexpr fp12_t& operator-=(const fp12_t& b) { c0 -= b.c0; c1 -= b.c1; return *this; }
  // Karatsuba: 3 Fp6 multiplications (18 Fp2, 54 Fp).
  constexpr fp12_t& operator*=(const fp12_t& b) {
    fp6_t v0 = c0 * b.c0, v1 = c1 * b.c1;
    c1 = (c0 + c1) * (b.c0 + b.c1) - v0 - v1;
    c0 = v1.mul_by_nonresidue() + v0;
    return *this;
  }
  friend constexpr fp12_t operator+(fp12_t a, const fp12_t& b) { return a += b; }
  friend constexpr fp12_t operator-(fp12_t a, const fp12_t& b) { return a -= b; }
  friend constexpr fp12_t operator*(fp12_t a, const fp12_t& b) { return a *= b; }
  constexpr fp12_t operator-() const { return {-c0, -c1}; }
  constexpr fp12_t dbl() const { return {c0.dbl(), c1.dbl()}; }

  // Complex squaring, 2 Fp6 multiplications: (a0 + a1 w)^2 =
  // (a0 + a1)(a0 + v a1) - (1 + v) a0 a1 + 2 a0 a1 w.
  constexpr fp12_t sqr() const {
    fp6_t ab = c0 * c1;
    fp6_t t = (c0 + c1) * (c0 + c1.mul_by_nonresidue()) - ab - ab.mul_by_nonresidue();
    return {t, ab.dbl()};
  }

  // x^(p^6): w^(p^6) = -w. On the cyclotomic subgroup (every pairing value after
  // the easy part of the final exponentiation) this is the inverse.
  constexpr fp12_t conj() const { return {c0, -c1}; }

  // (a0 - a1 w) / (a0^2 - v a1^2): one Fp6 inversion.
  constexpr fp12_t inverse() const {
    fp6_t inv = (c0.sqr() - c1.sqr().mul_by_nonresidue()).inverse();
    return {c0 * inv, -(c1 * inv)};
  }

  // * (o0 + o1 v + o4 v w): the shape of a Miller-loop line on the M-type twist
  // (coefficients 0, 1 and 4 of the Fp2 basis 1, v, v^2, w, vw, v^2 w);
  // 13 Fp2 multiplications instead of 18.
  constexpr fp12_t mul_by_014(const fp2_t& o0, const fp2_t& o1, const fp2_t& o4) const {
    fp6_t t0 = c0.mul_by_01(o0, o1);
    fp6_t t1 = c1.mul_by_1(o4);
    fp6_t s = (c0 + c1).mul_by_01(o0, o1 + o4);
    return {t1.mul_by_nonresidue() + t0, s - t0 - t1};
  }

  // x^(p^power). w^(p^k) = w * xi^((p^k - 1)/6); the cycle length is 12.
  fp12_t frobenius_map(size_t power) const {
    static const auto d = detail::xi_frobenius_powers<12>(6);
    size_t k = power % 12;
    if (k == 0) return *this;
    return {c0.frobenius_map(k), c1.frobenius_map(k) * d[k]};
  }

  // Squaring in the cyclotomic subgroup (order dividing p^4 - p^2 + 1, where every
  // value lies after the easy part of the final exponentiation): Granger, Scott, "Faster squaring
  // in the cyclotomic subgroup of sixth degree extensions", PKC 2010, section 3.1.
  // With s = w^3 (s^2 = xi) and Fp4 = Fp2[s], x = A + B w + C w^2 where
  // A = c0.c0 + c1.c1 s, B = c1.c0 + c0.c2 s, C = c0.c1 + c1.c2 s, and
  // x^2 = (3A^2 - 2conj(A)) + (3 s C^2 + 2 conj(B)) w + (3B^2 - 2conj(C)) w^2.
  // 9 Fp2 squarings instead of 12 Fp2 multiplications. Wrong outside the subgroup.
  constexpr fp12_t cyclotomic_sqr() const {
    auto fp4_sqr = [](const fp2_t& a0, const fp2_t& a1, fp2_t& r0, fp2_t& r1) {
      fp2_t s0 = a0.sqr(), s1 = a1.sqr();
      r0 = s1.mul_by_nonresidue() + s0;
      r1 = (a0 + a1).sqr() - s0 - s1;
    };
    // z' = 3 t -/+ 2 z, written as 2 (t -/+ z) + t.
    auto minus = [](const fp2_t& t, const fp2_t& z) { return (t - z).dbl() + t; };
    auto plus = [](const fp2_t& t, const fp2_t& z) { return (t + z).dbl() + t; };
    fp2_t a0, a1, b0, b1, cc0, cc1;
    fp4_sqr(c0.c0, c1.c1, a0, a1);  // A^2
    fp4_sqr(c1.c0, c0.c2, b0, b1);  // B^2
    fp4_sqr(c0.c1, c1.c2, cc0, cc1);  // C^2
    fp12_t r;
    r.c0.c0 = minus(a0, c0.c0);
    r.c1.c1 = plus(a1, c1.c1);
    r.c1.c0 = plus(cc1.mul_by_nonresidue(), c1.c0);  // s C^2 = xi C^2_1 + C^2_0 s
    r.c0.c2 = minus(cc0, c0.c2);
    r.c0.c1 = minus(b0, c0.c1);
    r.c1.c2 = plus(b1, c1.c2);
    return r;
  }

  template <size_t M>
  constexpr fp12_t pow(const limbs_t<M>& e) const {
    fp12_t r = one();
    for (size_t i = big_num_bits(e); i-- > 0;) {
      r = r.sqr();
      if (big_bit(e, i)) r *= *this;
    }
    return r;
  }

  // pow for elements of the cyclotomic subgroup.
  template <size_t M>
  constexpr fp12_t cyclotomic_pow(const limbs_t<M>& e) const {
    fp12_t r = one();
    for (size_t i = big_num_bits(e); i-- > 0;) {
      r = r.cyclotomic_sqr();
      if (big_bit(e, i)) r *= *this;
    }
    return r;
  }

  template <class Rng>
  static fp12_t random(Rng& rng) {
    fp6_t a = fp6_t::random(rng);
    return {a, fp6_t::random(rng)};
  }
};

static_assert(sizeof(fp12_t) == 576);

}  // namespace cuzk::ff
