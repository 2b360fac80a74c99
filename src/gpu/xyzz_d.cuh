#pragma once
// XYZZ bucket accumulator on the device, the twin of ec::xyzz_t with the same
// EFD formulas (madd-2008-s, add-2008-s, dbl-2008-s-1, mdbl-2008-s) and the
// same bytes (X, Y, ZZ, ZZZ; ZZ = 0 is infinity, all-zero bytes are infinity,
// so a memset clears a bucket array). Over fp_lazy_d the coordinates are
// congruent rather than equal (canonical() gives the bytes), and zero tests
// are congruence tests (is_zero). Mixed addition: 8M + 2S; no inversion.
// Each formula's Y is a difference of two products; a form with
// mul_sub_mul (fp_lazy_d) takes it in one Montgomery reduction.
// Host-compilable (CI compares it with ec::xyzz_t).
#include "gpu/affine_d.cuh"

namespace cuzk::gpu {

// a·b - c·d: F::mul_sub_mul where the form has it, else two products.
template <class F>
CUZK_HD F mul_sub_mul(const F& a, const F& b, const F& c, const F& d) {
  if constexpr (requires { F::mul_sub_mul(a, b, c, d); }) {
    return F::mul_sub_mul(a, b, c, d);
  } else {
    return a * b - c * d;
  }
}

template <class F>
struct xyzz_d {
  F X, Y, ZZ, ZZZ;

  CUZK_HD static xyzz_d inf() { return {F::zero(), F::zero(), F::zero(), F::zero()}; }
  CUZK_HD bool is_inf() const { return ZZ.is_zero(); }

  // (X / ZZ, Y / ZZZ) with one inversion, d = 1/(ZZ ZZZ): 1/ZZ = ZZZ d and
  // 1/ZZZ = ZZ d. Infinity (ZZ = 0) inverts 0 to 0 and comes out as (0, 0),
  // ec::affine_t's infinity. Affine coordinates are unique, so the bytes are
  // the host's for the same point.
  CUZK_HD affine_d<F> to_affine() const {
    const F d = (ZZ * ZZZ).inverse();
    return {X * (ZZZ * d), Y * (ZZ * d)};
  }

  CUZK_HD static xyzz_d dbl_affine(const F& x, const F& y) {
    F U = y.dbl(), V = U.sqr(), W = U * V, S = x * V;
    F xx = x.sqr();
    F M = xx.dbl() + xx;
    F X3 = M.sqr() - S.dbl();
    return {X3, mul_sub_mul(M, S - X3, W, y), V, W};
  }

  CUZK_HD xyzz_d dbl() const {
    if (is_inf()) return *this;
    F U = Y.dbl(), V = U.sqr(), W = U * V, S = X * V;
    F xx = X.sqr();
    F M = xx.dbl() + xx;
    F X3 = M.sqr() - S.dbl();
    return {X3, mul_sub_mul(M, S - X3, W, Y), V * ZZ, W * ZZZ};
  }

  // this += (x, neg ? -y : y); q at infinity is skipped.
  CUZK_HD void add_mixed(const affine_d<F>& q, bool neg) {
    if (q.is_inf()) return;
    const F qy = neg ? -q.y : q.y;
    if (is_inf()) {
      *this = {q.x, qy, F::one(), F::one()};
      return;
    }
    F P = q.x * ZZ - X;
    F R = qy * ZZZ - Y;
    if (P.is_zero()) {
      *this = R.is_zero() ? dbl_affine(q.x, qy) : inf();
      return;
    }
    F PP = P.sqr(), PPP = P * PP, Q = X * PP;
    F X3 = R.sqr() - PPP - Q.dbl();
    Y = mul_sub_mul(R, Q - X3, Y, PPP);
    X = X3;
    ZZ = ZZ * PP;
    ZZZ = ZZZ * PPP;
  }

  CUZK_HD void add(const xyzz_d& q) {
    if (q.is_inf()) return;
    if (is_inf()) {
      *this = q;
      return;
    }
    F U1 = X * q.ZZ, U2 = q.X * ZZ;
    F S1 = Y * q.ZZZ, S2 = q.Y * ZZZ;
    F P = U2 - U1, R = S2 - S1;
    if (P.is_zero()) {
      *this = R.is_zero() ? dbl() : inf();
      return;
    }
    F PP = P.sqr(), PPP = P * PP, Q = U1 * PP;
    F X3 = R.sqr() - PPP - Q.dbl();
    Y = mul_sub_mul(R, Q - X3, S1, PPP);
    X = X3;
    ZZ = ZZ * q.ZZ * PP;
    ZZZ = ZZZ * q.ZZZ * PPP;
  }
};

// The point with fully reduced coordinates, in the layout of ec::xyzz_t (the
// host's bytes): over fp_lazy_d each coordinate's canonical() (an xyzz_d<fp_d>),
// otherwise the point itself.
template <class F>
CUZK_HD auto canonical(const xyzz_d<F>& p) {
  if constexpr (requires { p.X.canonical(); }) {
    using G = decltype(p.X.canonical());
    return xyzz_d<G>{p.X.canonical(), p.Y.canonical(), p.ZZ.canonical(), p.ZZZ.canonical()};
  } else {
    return p;
  }
}

}  // namespace cuzk::gpu
