#pragma once
// Groth16 proving parameters in bellperson's layout: the verifying key, then
// the H query (n - 1 points for a domain of n), L (one per aux variable),
// A (all inputs, then dense aux), B in G1 and G2 (dense inputs, then dense aux).
#include <cstddef>
#include <vector>

#include "groth16/verifying_key_t.hpp"

namespace cuzk::groth16 {

struct parameters_t {
  verifying_key_t vk;
  std::vector<g1_affine_t> h;
  std::vector<g1_affine_t> l;
  std::vector<g1_affine_t> a;
  std::vector<g1_affine_t> b_g1;
  std::vector<g2_affine_t> b_g2;

  // Bytes held in memory: the points and the verifying key.
  std::size_t bytes() const {
    return sizeof(g1_affine_t) * (h.size() + l.size() + a.size() + b_g1.size() + vk.ic.size()) +
           sizeof(g2_affine_t) * b_g2.size() + sizeof(verifying_key_t);
  }

  bool operator==(const parameters_t&) const = default;
};

// How many points each query holds: what the provers check a witness against.
// A prover that keeps some queries elsewhere (the GPU's resident bases)
// records these when it is built, so the host vectors may be freed after.
struct query_sizes_t {
  std::size_t ic = 0, h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;

  static query_sizes_t of(const parameters_t& p) {
    return {p.vk.ic.size(), p.h.size(), p.l.size(), p.a.size(), p.b_g1.size(), p.b_g2.size()};
  }
  bool operator==(const query_sizes_t&) const = default;
};

}  // namespace cuzk::groth16
