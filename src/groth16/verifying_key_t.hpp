#pragma once
// Groth16 verifying key, field for field as bellman/bellperson store it.
#include <vector>

#include "ec/curves.hpp"

namespace cuzk::groth16 {

using ec::g1_affine_t;
using ec::g2_affine_t;
using ff::fr_t;

struct verifying_key_t {
  g1_affine_t alpha_g1;
  g1_affine_t beta_g1;
  g2_affine_t beta_g2;
  g2_affine_t gamma_g2;
  g1_affine_t delta_g1;
  g2_affine_t delta_g2;
  // ic[0] pairs with ONE, ic[i] with public input i (1-based after ONE).
  std::vector<g1_affine_t> ic;

  size_t num_public_inputs() const { return ic.empty() ? 0 : ic.size() - 1; }
  bool operator==(const verifying_key_t&) const = default;
};

}  // namespace cuzk::groth16
