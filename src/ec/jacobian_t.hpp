#pragma once
// Jacobian point (X, Y, Z) ~ (X/Z^2, Y/Z^3); Z = 0 is infinity. Formulas for
// a = 0 from the Explicit-Formulas Database (hyperelliptic.org/EFD, g1p/shortw-jacobian-0).
#include <span>
#include <vector>

#include "ec/affine_t.hpp"
#include "ff/mont_field.hpp"

namespace cuzk::ec {

template <class C>
struct jacobian_t {
  using field_t = typename C::field_t;
  using affine = affine_t<C>;
  field_t X, Y, Z;

  static constexpr jacobian_t infinity() { return {field_t::one(), field_t::one(), field_t::zero()}; }
  static constexpr jacobian_t from_affine(const affine& a) {
    if (a.is_inf()) return infinity();
    return {a.x, a.y, field_t::one()};
  }
  constexpr bool is_inf() const { return Z.is_zero(); }
  constexpr jacobian_t operator-() const { return {X, -Y, Z}; }

  // dbl-2009-l
  constexpr jacobian_t dbl() const {
    if (is_inf()) return *this;
    field_t A = X.sqr(), B = Y.sqr(), Cc = B.sqr();
    field_t D = ((X + B).sqr() - A - Cc).dbl();
    field_t E = A.dbl() + A;
    field_t F = E.sqr();
    field_t X3 = F - D.dbl();
    field_t C8 = Cc.dbl().dbl().dbl();
    return {X3, E * (D - X3) - C8, (Y * Z).dbl()};
  }

  // add-2007-bl, with the doubling and inverse cases handled.
  constexpr jacobian_t operator+(const jacobian_t& q) const {
    if (is_inf()) return q;
    if (q.is_inf()) return *this;
    field_t Z1Z1 = Z.sqr(), Z2Z2 = q.Z.sqr();
    field_t U1 = X * Z2Z2, U2 = q.X * Z1Z1;
    field_t S1 = Y * q.Z * Z2Z2, S2 = q.Y * Z * Z1Z1;
    field_t H = U2 - U1;
    field_t r = (S2 - S1).dbl();
    if (H.is_zero()) return r.is_zero() ? dbl() : infinity();
    field_t I = H.dbl().sqr();
    field_t J = H * I;
    field_t V = U1 * I;
    field_t X3 = r.sqr() - J - V.dbl();
    field_t Y3 = r * (V - X3) - (S1 * J).dbl();
    field_t Z3 = ((Z + q.Z).sqr() - Z1Z1 - Z2Z2) * H;
    return {X3, Y3, Z3};
  }

  // madd-2007-bl: q has Z = 1.
  constexpr jacobian_t add_mixed(const affine& q) const {
    if (q.is_inf()) return *this;
    if (is_inf()) return from_affine(q);
    field_t Z1Z1 = Z.sqr();
    field_t U2 = q.x * Z1Z1;
    field_t S2 = q.y * Z * Z1Z1;
    field_t H = U2 - X;
    field_t r = (S2 - Y).dbl();
    if (H.is_zero()) return r.is_zero() ? dbl() : infinity();
    field_t HH = H.sqr();
    field_t I = HH.dbl().dbl();
    field_t J = H * I;
    field_t V = X * I;
    field_t X3 = r.sqr() - J - V.dbl();
    field_t Y3 = r * (V - X3) - (Y * J).dbl();
    field_t Z3 = (Z + H).sqr() - Z1Z1 - HH;
    return {X3, Y3, Z3};
  }

  constexpr jacobian_t& operator+=(const jacobian_t& q) { return *this = *this + q; }
  constexpr jacobian_t operator-(const jacobian_t& q) const { return *this + (-q); }

  // Projective equality: X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3.
  constexpr bool operator==(const jacobian_t& q) const {
    if (is_inf() || q.is_inf()) return is_inf() && q.is_inf();
    field_t Z1Z1 = Z.sqr(), Z2Z2 = q.Z.sqr();
    return X * Z2Z2 == q.X * Z1Z1 && Y * Z2Z2 * q.Z == q.Y * Z1Z1 * Z;
  }

  constexpr affine to_affine() const {
    if (is_inf()) return affine::infinity();
    field_t zi = Z.inverse(), zi2 = zi.sqr();
    return {X * zi2, Y * zi2 * zi};
  }

  // Left-to-right double-and-add over little-endian limbs; not constant time
  // (only public data or setup randomness that is discarded afterwards).
  template <class Limbs>
  constexpr jacobian_t mul_limbs(const Limbs& e) const {
    jacobian_t r = infinity();
    for (size_t i = ff::big_num_bits(e); i-- > 0;) {
      r = r.dbl();
      if (ff::big_bit(e, i)) r += *this;
    }
    return r;
  }
  template <class Scalar>
  constexpr jacobian_t mul(const Scalar& s) const { return mul_limbs(s.to_canonical()); }
  constexpr jacobian_t mul_u64(uint64_t s) const { return mul_limbs(ff::limbs_t<1>{s}); }
};

// One inversion for the whole batch (Montgomery's trick).
template <class C>
std::vector<affine_t<C>> batch_to_affine(std::span<const jacobian_t<C>> pts) {
  using F = typename C::field_t;
  std::vector<F> zs(pts.size());
  for (size_t i = 0; i < pts.size(); ++i) zs[i] = pts[i].Z;
  ff::batch_inverse(std::span<F>(zs));
  std::vector<affine_t<C>> out(pts.size());
  for (size_t i = 0; i < pts.size(); ++i) {
    if (pts[i].is_inf()) continue;
    F zi2 = zs[i].sqr();
    out[i] = {pts[i].X * zi2, pts[i].Y * zi2 * zs[i]};
  }
  return out;
}

}  // namespace cuzk::ec
