// Doubling and addition steps of the Miller loop on the M-type twist
// E'(Fp2): y^2 = x^3 + b', b' = 4(u + 1), with the running point T in
// homogeneous projective coordinates (x = X/Z, y = Y/Z): no inversions.
// Formulas: Costello, Lange, Naehrig, "Faster pairing computations on curves
// with high-degree twists", PKC 2010, section 5, in the form of Aranha, Karabina,
// Longa, Gebotys, Lopez, "Faster explicit formulas for computing pairings over
// ordinary curves", Eurocrypt 2011, section 4 (there for the D-type twist; the
// M-type twist of BLS12-381 untwists by (x, y) -> (x / w^2, y / w^3), which moves
// the line to coefficients 0, 1, 4 of Fp12 instead of 0, 3, 4).
#include "pairing/g2_prepared.hpp"

namespace cuzk::pairing {

namespace {

using ff::fp2_t;
using ff::fp_t;

struct projective_t {
  fp2_t X, Y, Z;
};

fp2_t mul3(const fp2_t& a) { return a.dbl() + a; }

// T <- 2T. With A = XY, B = Y^2, C = Z^2, E = 3b'C, F = 3E, H = 2YZ, Aranha et
// al. give X3 = A(B - F)/2, Y3 = ((B + F)/2)^2 - 3E^2, Z3 = BH; here every
// coordinate is multiplied by 4 (the same projective point) so that nothing is
// halved. The tangent, times 2YZ w^3: (B - E) + (-3X^2 xP) v + (H yP) v w.
// Cost: 3M + 6S + cheap Fp2 multiplication by 3b' = 12(u + 1).
line_t double_step(projective_t& t) {
  const fp_t twelve = fp_t::from_u64(12);
  fp2_t A = t.X * t.Y;
  fp2_t B = t.Y.sqr();
  fp2_t C = t.Z.sqr();
  fp2_t E = C.mul_by_nonresidue() * twelve;
  fp2_t F = mul3(E);
  fp2_t H = (t.Y + t.Z).sqr() - B - C;
  line_t l{B - E, -mul3(t.X.sqr()), H};
  t.X = (A * (B - F)).dbl();
  t.Y = (B + F).sqr() - mul3(E.sqr()).dbl().dbl();
  t.Z = (B * H).dbl().dbl();
  return l;
}

// T <- T + Q for affine Q = (x2, y2). theta = Y - y2 Z and lambda = X - x2 Z are
// the numerator and denominator of the chord's slope; the chord, times lambda w^3:
// (theta x2 - lambda y2) + (-theta xP) v + (lambda yP) v w. Cost: 11M + 2S.
line_t add_step(projective_t& t, const fp2_t& x2, const fp2_t& y2) {
  fp2_t theta = t.Y - y2 * t.Z;
  fp2_t lambda = t.X - x2 * t.Z;
  fp2_t C = theta.sqr();
  fp2_t D = lambda.sqr();
  fp2_t E = lambda * D;
  fp2_t F = t.Z * C;
  fp2_t G = t.X * D;
  fp2_t H = E + F - G.dbl();
  line_t l{theta * x2 - lambda * y2, -theta, lambda};
  t.X = lambda * H;
  t.Y = theta * (G - H) - t.Y * E;
  t.Z = t.Z * E;
  return l;
}

}  // namespace

g2_prepared_t::g2_prepared_t(const ec::g2_affine_t& q) : inf_(q.is_inf()) {
  if (inf_) return;
  projective_t t{q.x, q.y, fp2_t::one()};
  size_t k = 0;
  for (size_t i = n_loop_bits; i-- > 0;) {
    lines_[k++] = double_step(t);
    if ((loop_param >> i) & 1) lines_[k++] = add_step(t, q.x, q.y);
  }
}

}  // namespace cuzk::pairing
