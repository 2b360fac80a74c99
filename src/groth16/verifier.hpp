#pragma once
// Groth16 verification: e(A, B) = e(alpha, beta) e(IC(x), gamma) e(C, delta),
// checked as one product of four pairings equal to 1 (one final exponentiation).
// The batch verifier folds k proofs with random 128-bit weights z_i (bellman's
// verify_proofs_batch): prod e(z_i A_i, B_i) = e(sum z_i alpha, beta)
// e(sum z_i IC_i, gamma) e(sum z_i C_i, delta), k + 3 Miller loops in all.
#include <span>

#include "groth16/proof_t.hpp"
#include "groth16/verifying_key_t.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::groth16 {

class prepared_vk_t {
 public:
  explicit prepared_vk_t(const verifying_key_t& vk);
  const verifying_key_t& vk() const { return vk_; }

  // Throws std::invalid_argument when the number of public inputs is wrong.
  bool verify(const proof_t& proof, std::span<const fr_t> public_inputs) const;
  // weights: one nonzero random scalar per proof, from a CSPRNG (see verify_batch).
  bool verify_batch(std::span<const proof_t> proofs, std::span<const std::vector<fr_t>> public_inputs,
                    std::span<const fr_t> weights) const;

 private:
  // Throws std::invalid_argument unless there is one input per IC point after the first.
  void check_inputs(std::span<const fr_t> public_inputs) const;
  // weight·ic[0] + sum public_inputs[i]·ic[i+1].
  ec::g1_jacobian_t input_sum(std::span<const fr_t> public_inputs, const fr_t& weight) const;
  verifying_key_t vk_;
  pairing::g2_prepared_t beta_, gamma_, delta_;
};

bool verify(const verifying_key_t& vk, const proof_t& proof, std::span<const fr_t> public_inputs);

template <class Rng>
bool verify_batch(const prepared_vk_t& pvk, std::span<const proof_t> proofs,
                  std::span<const std::vector<fr_t>> public_inputs, Rng& rng) {
  std::vector<fr_t> z(proofs.size());
  for (auto& w : z) {
    ff::limbs_t<4> x{rng(), rng(), 0, 0};  // 128 bits: soundness error 2^-128
    if (x[0] == 0 && x[1] == 0) x[0] = 1;
    w = *fr_t::from_canonical(x);
  }
  return pvk.verify_batch(proofs, public_inputs, z);
}

}  // namespace cuzk::groth16
