#pragma once
// Fallback PoSt challenges (rust-fil-proofs storage-proofs-post
// fallback/vanilla.rs, fallback/utils.rs; filecoin-proofs api/post_util.rs,
// api/winning_post.rs):
//   leaf:   first 8 bytes, LE, of SHA-256(randomness ‖ sector_id u64 LE ‖ c u64 LE)
//           mod nodes                                  (generate_leaf_challenge)
//   c:      API 1.0, 1.1: sector_index · challenges_per_sector + n;
//           API 1.2: n                                 (get_challenge_index)
//   sector: first 8 bytes, LE, of SHA-256(prover_id ‖ randomness ‖ n u64 LE)
//           mod sector_set_len                         (generate_sector_challenge)
// where n is the challenge's number within its sector and sector_index the
// sector's position among all sectors of the request (partition k's i-th
// sector has k · sectors_per_partition + i). API 1.2 (WindowPoSt "V1_1" in
// filecoin-ffi) drops sector_index so that the order of the sectors cannot be
// ground for easy leaves. Unlike PoRep challenges, leaf 0 can be challenged.
// randomness and prover_id enter as their raw 32 bytes, which upstream first
// requires to be a canonical field element (as_safe_commitment).
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "porep/api_version_t.hpp"
#include "porep/post_proof_t.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::porep {

std::uint64_t post_challenge_index(api_version_t v, std::uint64_t sector_index, std::uint64_t challenges_per_sector,
                                   std::uint64_t n);

std::uint64_t post_leaf_challenge(const bytes32_t& randomness, std::uint64_t sector_id, std::uint64_t challenge_index,
                                  std::uint64_t nodes);

// The shape's challenges_per_sector leaves of one sector. Throws
// std::invalid_argument for Winning under API 1.2: upstream would draw the
// 66 leaves with c = n but its verifier, seeing 66 one-challenge sectors,
// with c = 0, and no registered Winning proof has that version.
std::vector<std::uint64_t> post_sector_challenges(const post_shape_t& shape, api_version_t v,
                                                  const bytes32_t& randomness, std::uint64_t sector_id,
                                                  std::uint64_t sector_index);

// generate_fallback_sector_challenges: every sector's leaves, by sector id,
// for a request whose sectors are `sector_ids` in order (Window: split into
// partitions of sectors_per_partition; Winning: only the first sector, as
// upstream takes one chunk of WINNING_POST_SECTOR_COUNT). A repeated id keeps
// the leaves of its last position. Throws std::invalid_argument for no
// sectors or a randomness that is not a canonical field element.
std::map<std::uint64_t, std::vector<std::uint64_t>> fallback_sector_challenges(const post_shape_t& shape,
                                                                               api_version_t v,
                                                                               const bytes32_t& randomness,
                                                                               std::span<const std::uint64_t> sector_ids);

std::uint64_t winning_sector_challenge(const bytes32_t& randomness, const bytes32_t& prover_id, std::uint64_t n,
                                       std::uint64_t sector_set_len);

// generate_winning_post_sector_challenge: which of a miner's sector_set_len
// sectors WinningPoSt proves (`count` = WINNING_POST_SECTOR_COUNT = 1 draws).
// Throws std::invalid_argument for an empty set or a non-canonical
// randomness or prover_id.
std::vector<std::uint64_t> winning_sector_challenges(const bytes32_t& randomness, const bytes32_t& prover_id,
                                                     std::uint64_t sector_set_len, unsigned count = 1);

// True when the 32 bytes are the little-endian encoding of a value below r.
bool is_canonical_fr(const bytes32_t& b);

}  // namespace cuzk::porep
