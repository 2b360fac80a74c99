#include "circuits/post_public_inputs.hpp"

#include <stdexcept>
#include <string>

#include "circuits/post_circuit_params.hpp"

namespace cuzk::circuits {

using ff::fr_t;

std::vector<fr_t> post_public_inputs(const porep::post_shape_t& shape, std::span<const post_public_sector_t> sectors) {
  const post_circuit_params_t p = post_circuit_params(shape);
  const bool winning = shape.kind == porep::post_kind_t::winning;
  const std::size_t max_sectors = winning ? 1 : shape.sectors_per_partition;
  if (sectors.empty() || sectors.size() > max_sectors) {
    throw std::invalid_argument("post public inputs: " + std::to_string(sectors.size()) + " sectors, the " +
                                post_kind_name(shape.kind) + " partition takes 1 to " + std::to_string(max_sectors));
  }
  std::vector<fr_t> in;
  in.reserve(std::size_t(p.sector_count) * (1 + p.challenge_count));
  for (std::size_t i = 0; i < sectors.size(); ++i) {
    const auto& s = sectors[i];
    const std::string at = "post public inputs: sector " + std::to_string(i);
    if (s.leaf_indices.size() != shape.challenges_per_sector) {
      throw std::invalid_argument(at + " has " + std::to_string(s.leaf_indices.size()) + " leaf indices, the shape " +
                                  std::to_string(shape.challenges_per_sector));
    }
    for (std::size_t n = 0; n < s.leaf_indices.size(); ++n) {
      if (s.leaf_indices[n] >= shape.sector.nodes) {
        throw std::invalid_argument(at + " challenge " + std::to_string(n) + ": leaf " +
                                    std::to_string(s.leaf_indices[n]) + " is not below " +
                                    std::to_string(shape.sector.nodes) + " (\"Challenge out of range\")");
      }
      // Window: one block per sector, comm_r then its challenges. Winning:
      // one block per challenge.
      if (winning || n == 0) in.push_back(s.comm_r);
      in.push_back(fr_t::from_u64(s.leaf_indices[n]));
    }
  }
  // Duplicate the last block while the partition is short (compound.rs).
  const std::size_t per_block = 1 + p.challenge_count;
  while (in.size() < per_block * p.sector_count) {
    const std::size_t last = in.size() - per_block;
    for (std::size_t k = 0; k < per_block; ++k) in.push_back(in[last + k]);
  }
  return in;
}

std::vector<post_public_sector_t> post_public_sectors(std::span<const porep::post_sector_proof_t> proofs) {
  std::vector<post_public_sector_t> out;
  out.reserve(proofs.size());
  for (const auto& s : proofs) {
    post_public_sector_t p{s.comm_r, {}};
    p.leaf_indices.reserve(s.challenges.size());
    for (const auto& c : s.challenges) p.leaf_indices.push_back(c.leaf_index);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace cuzk::circuits
