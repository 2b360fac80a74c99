#pragma once
// Public header of the pairing layer: the optimal ate pairing on BLS12-381,
// e: G1 x G2 -> GT in Fp12. pairing() is the exact f^((p^12 - 1)/r);
// blst, zkcrypto and noble return its cube (final_exponentiation_cube).
// Used by verifiers only; inputs are assumed to lie in their prime-order subgroups.
#include <span>

#include "pairing/final_exponentiation.hpp"
#include "pairing/g2_prepared.hpp"
#include "pairing/miller_loop.hpp"

namespace cuzk::pairing {

inline fp12_t pairing(const ec::g1_affine_t& p, const ec::g2_affine_t& q) {
  return final_exponentiation(miller_loop(p, q));
}

// prod e(P_i, Q_i) == 1 with one final exponentiation: the Groth16 check
// e(A, B) = e(alpha, beta) e(IC, gamma) e(C, delta) becomes a product of four.
// The cube is 1 exactly when the pairing value is, and is cheaper.
inline bool pairing_product_is_one(std::span<const prepared_term_t> terms) {
  return final_exponentiation_cube(multi_miller_loop(terms)).is_one();
}
inline bool pairing_product_is_one(std::span<const affine_term_t> terms) {
  return final_exponentiation_cube(multi_miller_loop(terms)).is_one();
}

}  // namespace cuzk::pairing
