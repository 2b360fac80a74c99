#include "ec/subgroup.hpp"

namespace cuzk::ec {
namespace {

constexpr ff::limbs_t<6> p_minus_1_over(uint64_t d) {
  auto e = fp_t::modulus;
  e[0] -= 1;
  return ff::big_div_small(e, d);
}

// The cube root of unity beta in Fp for which phi(x, y) = (beta x, y) acts on G1
// as -x^2 (the other root acts as its inverse); chosen once against the generator.
const fp_t& g1_beta() {
  static const fp_t beta = [] {
    fp_t b = fp_t::one();
    for (uint64_t g = 2; b.is_one(); ++g) b = fp_t::from_u64(g).pow(p_minus_1_over(3));
    g1_jacobian_t G = g1_jacobian_t::from_affine(g1_generator());
    g1_jacobian_t rhs = -G.mul_u64(bls_x_abs).mul_u64(bls_x_abs);
    g1_affine_t gen = g1_generator();
    if (g1_jacobian_t::from_affine({gen.x * b, gen.y}) == rhs) return b;
    return b.sqr();
  }();
  return beta;
}

struct psi_coeffs {
  fp2_t cx, cy;
};
// psi(x, y) = (conj(x) / (u+1)^((p-1)/3), conj(y) / (u+1)^((p-1)/2)).
const psi_coeffs& g2_psi_coeffs() {
  static const psi_coeffs c = [] {
    fp2_t xi{fp_t::one(), fp_t::one()};
    return psi_coeffs{xi.pow(p_minus_1_over(3)).inverse(), xi.pow(p_minus_1_over(2)).inverse()};
  }();
  return c;
}

}  // namespace

g2_affine_t psi(const g2_affine_t& p) {
  if (p.is_inf()) return p;
  const auto& c = g2_psi_coeffs();
  return {p.x.conj() * c.cx, p.y.conj() * c.cy};
}

bool in_subgroup(const g1_affine_t& p) {
  if (p.is_inf()) return true;
  g1_jacobian_t P = g1_jacobian_t::from_affine(p);
  g1_jacobian_t rhs = -P.mul_u64(bls_x_abs).mul_u64(bls_x_abs);
  return g1_jacobian_t::from_affine({p.x * g1_beta(), p.y}) == rhs;
}

bool in_subgroup(const g2_affine_t& p) {
  if (p.is_inf()) return true;
  g2_jacobian_t P = g2_jacobian_t::from_affine(p);
  g2_jacobian_t rhs = -P.mul_u64(bls_x_abs);  // [x]P with x negative
  return g2_jacobian_t::from_affine(psi(p)) == rhs;
}

bool in_subgroup_by_order(const g1_affine_t& p) {
  return g1_jacobian_t::from_affine(p).mul_limbs(fr_t::modulus).is_inf();
}
bool in_subgroup_by_order(const g2_affine_t& p) {
  return g2_jacobian_t::from_affine(p).mul_limbs(fr_t::modulus).is_inf();
}

}  // namespace cuzk::ec
