#pragma once
// Extended Jacobian (X, Y, ZZ, ZZZ) ~ (X/ZZ, Y/ZZZ), ZZ^3 = ZZZ^2; ZZ = 0 is
// infinity. Mixed addition costs 8M+2S against 7M+4S for Jacobian and needs no
// special case bookkeeping beyond P = 0, which is why MSM buckets use it.
// Formulas: EFD g1p/shortw-xyzz (madd-2008-s, add-2008-s, dbl-2008-s-1, mdbl-2008-s).
#include "ec/jacobian_t.hpp"

namespace cuzk::ec {

template <class C>
struct xyzz_t {
  using field_t = typename C::field_t;
  using affine = affine_t<C>;
  field_t X, Y, ZZ, ZZZ;

  static constexpr xyzz_t infinity() { return {}; }
  constexpr bool is_inf() const { return ZZ.is_zero(); }

  // mdbl-2008-s
  static constexpr xyzz_t dbl_affine(const affine& q) {
    field_t U = q.y.dbl(), V = U.sqr(), W = U * V, S = q.x * V;
    field_t xx = q.x.sqr();
    field_t M = xx.dbl() + xx;
    field_t X3 = M.sqr() - S.dbl();
    return {X3, M * (S - X3) - W * q.y, V, W};
  }

  // dbl-2008-s-1
  constexpr xyzz_t dbl() const {
    if (is_inf()) return *this;
    field_t U = Y.dbl(), V = U.sqr(), W = U * V, S = X * V;
    field_t xx = X.sqr();
    field_t M = xx.dbl() + xx;
    field_t X3 = M.sqr() - S.dbl();
    return {X3, M * (S - X3) - W * Y, V * ZZ, W * ZZZ};
  }

  // madd-2008-s
  constexpr void add_mixed(const affine& q) {
    if (q.is_inf()) return;
    if (is_inf()) {
      *this = {q.x, q.y, field_t::one(), field_t::one()};
      return;
    }
    field_t P = q.x * ZZ - X;
    field_t R = q.y * ZZZ - Y;
    if (P.is_zero()) {
      *this = R.is_zero() ? dbl_affine(q) : infinity();
      return;
    }
    field_t PP = P.sqr(), PPP = P * PP, Q = X * PP;
    field_t X3 = R.sqr() - PPP - Q.dbl();
    Y = R * (Q - X3) - Y * PPP;
    X = X3;
    ZZ *= PP;
    ZZZ *= PPP;
  }
  constexpr void sub_mixed(const affine& q) { add_mixed(-q); }

  // add-2008-s
  constexpr void add(const xyzz_t& q) {
    if (q.is_inf()) return;
    if (is_inf()) {
      *this = q;
      return;
    }
    field_t U1 = X * q.ZZ, U2 = q.X * ZZ;
    field_t S1 = Y * q.ZZZ, S2 = q.Y * ZZZ;
    field_t P = U2 - U1, R = S2 - S1;
    if (P.is_zero()) {
      *this = R.is_zero() ? dbl() : infinity();
      return;
    }
    field_t PP = P.sqr(), PPP = P * PP, Q = U1 * PP;
    field_t X3 = R.sqr() - PPP - Q.dbl();
    Y = R * (Q - X3) - S1 * PPP;
    X = X3;
    ZZ = ZZ * q.ZZ * PP;
    ZZZ = ZZZ * q.ZZZ * PPP;
  }

  // Z = ZZZ / ZZ gives Z^2 = ZZ and Z^3 = ZZZ; scaling by ZZ*ZZZ avoids the inversion:
  // with Z' = ZZ * ZZZ, X' = X * ZZ * ZZZ^2 and Y' = Y * ZZ^3 * ZZZ^2.
  constexpr jacobian_t<C> to_jacobian() const {
    if (is_inf()) return jacobian_t<C>::infinity();
    field_t zzz2 = ZZZ.sqr();
    return {X * ZZ * zzz2, Y * ZZ.sqr() * ZZ * zzz2, ZZ * ZZZ};
  }
};

}  // namespace cuzk::ec
