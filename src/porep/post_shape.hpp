#pragma once
// The counts that fix a fallback PoSt partition (filecoin-proofs constants.rs,
// parameters.rs): WinningPoSt challenges 66 leaves of 1 sector
// (WINNING_POST_CHALLENGE_COUNT, WINNING_POST_SECTOR_COUNT); WindowPoSt 10 leaves
// (WINDOW_POST_CHALLENGE_COUNT) of each of WINDOW_POST_SECTOR_COUNT sectors: 2 at
// the test sizes, 2349 at 32 GiB, 2300 at 64 GiB ("fitting in a single partition").
//
// Winning's circuit sees the same 66 openings as 66 "sectors" of 1 challenge
// (winning_post_setup_params divides 66 by 1 that way, and
// single_partition_vanilla_proofs unrolls the one SectorProof into 66); both
// views derive the same leaves under API 1.0/1.1, the only version a Winning
// proof is registered with. Our post_shape_t keeps the sector view: 1 x 66.
#include <cstdint>

#include "porep/post_proof_t.hpp"

namespace cuzk::porep {

inline constexpr unsigned winning_post_challenges = 66;
inline constexpr unsigned winning_post_sectors = 1;
inline constexpr unsigned window_post_challenges = 10;

// WINDOW_POST_SECTOR_COUNT; throws std::invalid_argument for a size that is not one of the five.
unsigned window_post_sectors_per_partition(std::uint64_t sector_bytes);

// The partition shape of `kind` at this sector size (Tree R from sector_params_for).
post_shape_t post_shape_for(post_kind_t kind, std::uint64_t sector_bytes);

// "winning", "window".
const char* to_string(post_kind_t kind);

}  // namespace cuzk::porep
