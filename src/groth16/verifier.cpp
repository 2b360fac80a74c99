#include "groth16/verifier.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "msm/msm.hpp"

namespace cuzk::groth16 {

using J1 = ec::g1_jacobian_t;

prepared_vk_t::prepared_vk_t(const verifying_key_t& vk)
    : vk_(vk), beta_(vk.beta_g2), gamma_(vk.gamma_g2), delta_(vk.delta_g2) {}

void prepared_vk_t::check_inputs(std::span<const fr_t> x) const {
  if (x.size() + 1 != vk_.ic.size()) {
    throw std::invalid_argument("wrong number of public inputs: got " + std::to_string(x.size()) +
                                ", the verifying key expects " + std::to_string(vk_.ic.size() - 1));
  }
}

// ic[0]·w + sum x_i·ic[i+1], the sum by the CPU MSM: a 32 GiB WindowPoSt
// partition has 25,839 inputs, and one scalar multiplication each took 1.5 s.
J1 prepared_vk_t::input_sum(std::span<const fr_t> x, const fr_t& w) const {
  const std::span<const ec::g1_affine_t> ic(vk_.ic);
  return J1::from_affine(ic[0]).mul(w) + msm::msm<ec::g1_curve>(ic.subspan(1), x);
}

bool prepared_vk_t::verify(const proof_t& p, std::span<const fr_t> x) const {
  check_inputs(x);
  J1 ic = input_sum(x, fr_t::one());
  pairing::g2_prepared_t b(p.b);
  const pairing::prepared_term_t terms[] = {
      {p.a, &b},
      {(-ic).to_affine(), &gamma_},
      {-p.c, &delta_},
      {-vk_.alpha_g1, &beta_},
  };
  return pairing::pairing_product_is_one(terms);
}

bool prepared_vk_t::verify_batch(std::span<const proof_t> proofs, std::span<const std::vector<fr_t>> inputs,
                                 std::span<const fr_t> z) const {
  if (proofs.size() != inputs.size() || proofs.size() != z.size())
    throw std::invalid_argument("verify_batch: proofs, inputs and weights differ in length");
  if (proofs.empty()) return true;
  std::vector<pairing::g2_prepared_t> bs;
  bs.reserve(proofs.size());
  std::vector<pairing::prepared_term_t> terms;
  J1 c_sum = J1::infinity();
  fr_t z_sum = fr_t::zero();
  // sum z_i·IC(x_i) = (sum z_i)·ic[0] + sum_j (sum_i z_i·x_ij)·ic[j+1]: one MSM for the batch.
  std::vector<fr_t> folded(vk_.ic.size() - 1, fr_t::zero());
  for (size_t i = 0; i < proofs.size(); ++i) {
    check_inputs(inputs[i]);
    bs.emplace_back(proofs[i].b);
    terms.push_back({J1::from_affine(proofs[i].a).mul(z[i]).to_affine(), &bs.back()});
    for (size_t j = 0; j < folded.size(); ++j) folded[j] += z[i] * inputs[i][j];
    c_sum += J1::from_affine(proofs[i].c).mul(z[i]);
    z_sum += z[i];
  }
  const J1 ic_sum = input_sum(folded, z_sum);
  terms.push_back({(-ic_sum).to_affine(), &gamma_});
  terms.push_back({(-c_sum).to_affine(), &delta_});
  terms.push_back({(-J1::from_affine(vk_.alpha_g1).mul(z_sum)).to_affine(), &beta_});
  return pairing::pairing_product_is_one(std::span<const pairing::prepared_term_t>(terms));
}

bool verify(const verifying_key_t& vk, const proof_t& proof, std::span<const fr_t> public_inputs) {
  return prepared_vk_t(vk).verify(proof, public_inputs);
}

}  // namespace cuzk::groth16
