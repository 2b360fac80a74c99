#pragma once
// Fallback PoSt vanilla proofs of synthetic sectors, and their checker
// (rust-fil-proofs storage-proofs-post fallback/vanilla.rs: vanilla_proof,
// prove_all_partitions, verify; filecoin-proofs api/post_util.rs).
//
// Generation, deterministic in `seed`: per sector, comm_c is a seeded random
// value and Tree R (the sector size's arities) either holds seeded random
// leaves everywhere (full: every node hashed, for test sizes) or only the
// subtrees above the challenged leaves, every other node a seeded stand-in
// (sparse: a 32 GiB sector costs its 10 openings). comm_r = Poseidon-2(comm_c,
// comm_r_last); the leaves are the sector's challenges (post_challenges.hpp).
//
// Checking, in an order that names the corrupted element rather than one that
// merely depends on it (paths as upstream's serde names them, e.g.
// "sectors[1].inclusion_proofs[3].path[2][5]"): counts and path shapes; each
// leaf index against its derived challenge (when none matches, the sector id);
// comm_r_last against what the openings agree on; comm_r = Poseidon-2(comm_c,
// comm_r_last); then each opening against comm_r_last. A bad opening is
// narrowed down with the nodes that the sector's good openings prove: a
// sibling that contradicts one of them is named exactly; otherwise the level
// whose node first contradicts one.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "porep/api_version_t.hpp"
#include "porep/post_proof_t.hpp"
#include "porep/vanilla_checker.hpp"

namespace cuzk::porep {

enum class post_tree_model_t : std::uint8_t {
  automatic,  // full up to 8 MiB, sparse above
  full,
  sparse,
};

// One sector's vanilla proof opening `leaves` (generate_single_vanilla_proof).
post_sector_proof_t generate_post_sector(const post_shape_t& shape, std::uint64_t sector_id,
                                         std::span<const std::uint64_t> leaves, std::uint64_t seed,
                                         post_tree_model_t model = post_tree_model_t::automatic);

// Partition k of a request whose i-th sector of this partition is
// sector_ids[i] (at most sectors_per_partition of them), each opening its
// derived challenges. Only the given sectors: pad_post_partition fills up.
std::vector<post_sector_proof_t> generate_post_partition(const post_shape_t& shape, api_version_t v,
                                                         const bytes32_t& randomness, unsigned partition_index,
                                                         std::span<const std::uint64_t> sector_ids, std::uint64_t seed,
                                                         post_tree_model_t model = post_tree_model_t::automatic);

// Upstream pads a short partition by repeating its last sector until it holds
// sectors_per_partition (prove_all_partitions, single_partition_vanilla_proofs;
// the circuit's public inputs repeat that sector's too). Throws
// std::invalid_argument for no sectors or more than sectors_per_partition.
std::vector<post_sector_proof_t> pad_post_partition(std::vector<post_sector_proof_t> sectors,
                                                    unsigned sectors_per_partition);

// Partition `partition_index` of a request: sectors[0, real_sectors) are the
// request's, the rest (if any) must repeat sectors[real_sectors - 1] and are
// challenged as it is. real_sectors 0 means all. nullopt when everything holds.
std::optional<check_failure_t> check_post_partition(const post_shape_t& shape, api_version_t v,
                                                    const bytes32_t& randomness, unsigned partition_index,
                                                    std::span<const post_sector_proof_t> sectors,
                                                    std::size_t real_sectors = 0);

// One sector at `sector_index` among the request's sectors, its elements
// named under `where` (e.g. "sectors[0]").
std::optional<check_failure_t> check_post_sector(const post_shape_t& shape, api_version_t v,
                                                 const bytes32_t& randomness, std::uint64_t sector_index,
                                                 const post_sector_proof_t& sector, const std::string& where);

}  // namespace cuzk::porep
