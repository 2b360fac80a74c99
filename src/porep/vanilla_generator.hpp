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

#include "porep/sector_params_t.hpp"
#include "porep/vanilla_proof_t.hpp"

namespace cuzk::porep {

vanilla_proof_t generate_replicated(const sector_params_t& p, std::uint64_t seed);
vanilla_proof_t generate_sparse(const sector_params_t& p, std::uint64_t seed);
// replicated up to 8 MiB, sparse above.
vanilla_proof_t generate_vanilla(const sector_params_t& p, std::uint64_t seed);

}  // namespace cuzk::porep
