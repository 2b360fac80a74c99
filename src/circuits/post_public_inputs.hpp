#pragma once
// The public inputs of one fallback PoSt partition, as storage-proofs-post
// fallback/compound.rs generate_public_inputs lays them out: per circuit
// sector block, comm_r, then per challenge the challenged leaf index as one
// field element (PoRCompound with private = true: no root input). A
// partition with fewer sectors than the circuit repeats the last block's
// inputs. ONE is not included.
//
// The leaf indices are taken as given (drawing them from the randomness is
// the vanilla model's job: generate_leaf_challenge). Winning PoSt's one
// sector with 66 leaves becomes 66 blocks of (comm_r, leaf n): upstream's
// verifier lists the sector 66 times with challenge_count 1, and block i's
// challenge index is i, the vanilla proof's challenge i (ApiVersion 1.0 and
// 1.1 number challenges sector_index * challenge_count + n).
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "porep/post_proof_t.hpp"

namespace cuzk::circuits {

struct post_public_sector_t {
  ff::fr_t comm_r;
  std::vector<std::uint64_t> leaf_indices;  // challenges_per_sector of them
};

// Throws std::invalid_argument, naming the sector, when the sector count is
// 0 or above the shape's (Winning: not 1), a sector has the wrong number of
// leaf indices, or an index is not below the sector's node count.
std::vector<ff::fr_t> post_public_inputs(const porep::post_shape_t& shape,
                                         std::span<const post_public_sector_t> sectors);

// The comm_r and leaf indices of sector proofs, for post_public_inputs.
std::vector<post_public_sector_t> post_public_sectors(std::span<const porep::post_sector_proof_t> proofs);

}  // namespace cuzk::circuits
