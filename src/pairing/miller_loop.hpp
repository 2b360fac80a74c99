#pragma once
// Optimal ate Miller loop f_{x,Q}(P) for BLS12-381 (Vercauteren, "Optimal
// pairings", IEEE TIT 2010): the loop scalar is x itself, no extra lines. The
// value is defined up to factors the final exponentiation removes; only
// final_exponentiation(miller_loop(...)) is canonical.
#include <span>
#include <utility>

#include "pairing/g2_prepared.hpp"

namespace cuzk::pairing {

using ff::fp12_t;

// A term (P, &Q_prepared): the pointer is not owned and must not be null.
using prepared_term_t = std::pair<ec::g1_affine_t, const g2_prepared_t*>;
using affine_term_t = std::pair<ec::g1_affine_t, ec::g2_affine_t>;

// Product of Miller loops sharing one chain of 62 Fp12 squarings; a term with P or Q
// at infinity contributes 1. The empty product is 1.
fp12_t multi_miller_loop(std::span<const prepared_term_t> terms);
fp12_t multi_miller_loop(std::span<const affine_term_t> terms);

fp12_t miller_loop(const ec::g1_affine_t& p, const g2_prepared_t& q);
fp12_t miller_loop(const ec::g1_affine_t& p, const ec::g2_affine_t& q);

}  // namespace cuzk::pairing
