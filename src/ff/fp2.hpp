#pragma once
// Fp2 = Fp[u] / (u^2 + 1).
#include <optional>

#include "ff/fp.hpp"

namespace cuzk::ff {

struct fp2_t {
  fp_t c0, c1;

  static constexpr fp2_t zero() { return {}; }
  static constexpr fp2_t one() { return {fp_t::one(), fp_t::zero()}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  constexpr bool operator==(const fp2_t&) const = default;

  constexpr fp2_t& operator+=(const fp2_t& b) { c0 += b.c0; c1 += b.c1; return *this; }
  constexpr fp2_t& operator-=(const fp2_t& b) { c0 -= b.c0; c1 -= b.c1; return *this; }
  // Karatsuba: 3 base multiplications.
  constexpr fp2_t& operator*=(const fp2_t& b) {
    fp_t v0 = c0 * b.c0;
    fp_t v1 = c1 * b.c1;
    fp_t s = (c0 + c1) * (b.c0 + b.c1);
    c0 = v0 - v1;
    c1 = s - v0 - v1;
    return *this;
  }
  constexpr fp2_t& operator*=(const fp_t& b) { c0 *= b; c1 *= b; return *this; }
  friend constexpr fp2_t operator+(fp2_t a, const fp2_t& b) { return a += b; }
  friend constexpr fp2_t operator-(fp2_t a, const fp2_t& b) { return a -= b; }
  friend constexpr fp2_t operator*(fp2_t a, const fp2_t& b) { return a *= b; }
  friend constexpr fp2_t operator*(fp2_t a, const fp_t& b) { return a *= b; }
  constexpr fp2_t operator-() const { return {-c0, -c1}; }

  constexpr fp2_t dbl() const { return {c0.dbl(), c1.dbl()}; }
  // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u
  constexpr fp2_t sqr() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }
  constexpr fp2_t conj() const { return {c0, -c1}; }
  // x^p is conjugation because u^p = -u.
  constexpr fp2_t frobenius() const { return conj(); }
  // Multiplication by the sextic non-residue u + 1.
  constexpr fp2_t mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }
  constexpr fp_t norm() const { return c0.sqr() + c1.sqr(); }
  constexpr fp2_t inverse() const {
    fp_t t = norm().inverse();
    return {c0 * t, -(c1 * t)};
  }

  template <size_t M>
  constexpr fp2_t pow(const limbs_t<M>& e) const {
    fp2_t r = one();
    for (size_t i = big_num_bits(e); i-- > 0;) {
      r = r.sqr();
      if (big_bit(e, i)) r *= *this;
    }
    return r;
  }

  // Adj and Rodriguez-Henriquez, "Square root computation over even extension
  // fields", IEEE TC 2014, algorithm 9 (p = 3 mod 4).
  std::optional<fp2_t> sqrt() const {
    if (is_zero()) return zero();
    auto e = fp_t::modulus;  // (p - 3) / 4
    e[0] -= 3;
    big_shr1(e);
    big_shr1(e);
    fp2_t a1 = pow(e);
    fp2_t alpha = a1.sqr() * *this;
    fp2_t a0 = alpha.frobenius() * alpha;
    if (a0 == -one()) return std::nullopt;
    fp2_t x0 = a1 * *this;
    fp2_t x;
    if (alpha == -one()) {
      x = {-x0.c1, x0.c0};
    } else {
      auto h = fp_t::modulus;  // (p - 1) / 2
      h[0] -= 1;
      big_shr1(h);
      x = (one() + alpha).pow(h) * x0;
    }
    if (!(x.sqr() == *this)) return std::nullopt;
    return x;
  }

  // Zcash ordering: compare c1 first, c0 when c1 is zero.
  bool is_lexicographically_largest() const {
    if (!c1.is_zero()) return c1.is_lexicographically_largest();
    return c0.is_lexicographically_largest();
  }

  template <class Rng>
  static fp2_t random(Rng& rng) {
    fp_t a = fp_t::random(rng);
    return {a, fp_t::random(rng)};
  }
};

static_assert(sizeof(fp2_t) == 96);

}  // namespace cuzk::ff
