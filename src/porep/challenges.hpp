#pragma once
// PoRep challenges of one partition, for each way upstream draws them
// (rust-fil-proofs storage-proofs-porep stacked/vanilla/challenges.rs and
// params.rs PublicInputs::challenges; FILECOIN_POREP.md §6):
//   none (interactive):  SHA-256(replica_id ‖ seed ‖ j u32 LE)                       (labeling.hpp)
//   SyntheticPoRep:      selected by the seed from the synthetic set of replica_id, comm_r
//                        (synthetic_challenges.hpp)
//   NonInteractivePoRep: SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖ comm_r ‖ j u32 LE);
//                        the seed is ignored
// with j = challenges_per_partition·k + i. Every digest or keystream word
// becomes a node as (LE integer mod (nodes-1)) + 1: node 0 is never challenged.
// The API version does not enter: V1_0, V1_1 and V1_2 draw identically (only
// the graph's parents differ for V1_0).
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "porep/challenge_shape_t.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::porep {

// (LE integer of the 32 bytes mod (nodes-1)) + 1 (challenges.rs bigint_to_challenge).
std::uint64_t challenge_from_digest(std::span<const std::uint8_t, 32> le, std::uint64_t nodes);

// Non-interactive challenge j (NiChallenges::derive).
std::uint64_t derive_ni_challenge(const ff::fr_t& replica_id, const ff::fr_t& comm_r, std::uint32_t j,
                                  std::uint64_t nodes);

// shape's nodes, challenges per partition and feature, from sector parameters.
challenge_shape_t challenge_shape(const sector_params_t& p);

// Partition k's challenges, in order, drawn as shape.feature says. comm_r is
// unused by interactive challenges, seed by non-interactive ones. Throws
// std::invalid_argument when k >= shape.partitions or the shape is empty.
std::vector<std::uint64_t> partition_challenges(const challenge_shape_t& shape, const ff::fr_t& replica_id,
                                                const ff::fr_t& comm_r, const bytes32_t& seed, unsigned k);
std::vector<std::uint64_t> partition_challenges(const sector_params_t& p, const ff::fr_t& replica_id,
                                                const ff::fr_t& comm_r, const bytes32_t& seed, unsigned k);

}  // namespace cuzk::porep
