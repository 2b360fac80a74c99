#pragma once
// Prime-order subgroup membership via endomorphisms (M. Scott, "A note on group
// membership tests for G1, G2 and GT on BLS pairing-friendly curves", ePrint
// 2021/1130): P in G1 iff phi(P) = -[x^2]P, P in G2 iff psi(P) = [x]P. Each costs
// one or two 64-bit scalar multiplications instead of a 255-bit one.
#include "ec/curves.hpp"

namespace cuzk::ec {

// Callers check is_on_curve first; infinity is in the subgroup.
bool in_subgroup(const g1_affine_t& p);
bool in_subgroup(const g2_affine_t& p);

// Reference test by multiplication with r; slow, used by tests to check the fast path.
bool in_subgroup_by_order(const g1_affine_t& p);
bool in_subgroup_by_order(const g2_affine_t& p);

// The untwist-Frobenius-twist endomorphism on E'(Fp2).
g2_affine_t psi(const g2_affine_t& p);

}  // namespace cuzk::ec
