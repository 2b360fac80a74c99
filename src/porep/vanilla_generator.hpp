#pragma once
// Synthetic sectors and their vanilla proofs, deterministic in `seed`.
//
// replicated (2 KiB, 8 MiB): seeded random data, every label of every layer,
//   full Trees D, C and R; replica_id from seeded prover_id / sector_id /
//   ticket and the real comm_d. This is a real seal of that data.
// sparse (any size; the default above 8 MiB): only what the challenges touch
//   is computed. Labels of challenged nodes are computed from their parents'
//   labels; every other label, data node and untouched subtree is a seeded
//   random value, so each opening hashes to one root and each challenged label
//   matches its parents. replica_id is random: its challenges decide which
//   Tree D leaves exist, so it cannot also be derived from comm_d.
#include <cstdint>
#include <optional>

#include "porep/sector_params_t.hpp"
#include "porep/vanilla_proof_t.hpp"

namespace cuzk::porep {

// The replica_id inputs a replicated sector uses instead of seeded ones, so
// that its replica_id is the one a request's miner id and sector number derive.
struct replica_inputs_t {
  std::optional<bytes32_t> prover_id;
  std::optional<std::uint64_t> sector_id;
};

vanilla_proof_t generate_replicated(const sector_params_t& p, std::uint64_t seed, const replica_inputs_t& inputs = {});
vanilla_proof_t generate_sparse(const sector_params_t& p, std::uint64_t seed);
// replicated up to 8 MiB, sparse above (which ignores `inputs`: its replica_id is random).
vanilla_proof_t generate_vanilla(const sector_params_t& p, std::uint64_t seed, const replica_inputs_t& inputs = {});

}  // namespace cuzk::porep
