#pragma once
// Fallback PoSt (WindowPoSt and WinningPoSt) as rust-fil-proofs models it
// (storage-proofs-post/src/fallback/vanilla.rs): per challenged sector, the
// sector's comm_r = Poseidon(comm_c, comm_r_last) and, per challenge, the
// Tree R inclusion of the challenged leaf. The Tree R shape is the sector
// size's (sector_params_t::tree_cr_arities); the sector counts and challenge
// counts are the PoSt kind's (post_shape_t). These are the native types the
// bincode reader (filecoin/post_bincode), the vanilla generator and checker
// (porep/post_vanilla) and the circuit (circuits/post_circuit) share.
#include <cstdint>
#include <vector>

#include "ff/fr.hpp"
#include "porep/merkle_path_t.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::porep {

enum class post_kind_t { winning, window };

// One challenge of one sector: the Tree R leaf at `leaf_index` and its path
// to comm_r_last (the leaf's slot at each level is the digit of leaf_index
// in the mixed radix of the arities, as for PoRep).
struct post_challenge_proof_t {
  std::uint64_t leaf_index = 0;
  ff::fr_t leaf;
  merkle_path_t path;
};

// One sector's part of a partition (upstream SectorProof plus the sector id
// and comm_r that FallbackPoStSectorProof carries beside it).
struct post_sector_proof_t {
  std::uint64_t sector_id = 0;
  ff::fr_t comm_r;       // = Poseidon-2(comm_c, comm_r_last)
  ff::fr_t comm_c;
  ff::fr_t comm_r_last;  // Tree R root
  std::vector<post_challenge_proof_t> challenges;
};

// What one PoSt circuit (one partition) covers.
struct post_shape_t {
  post_kind_t kind = post_kind_t::window;
  sector_params_t sector;                 // Tree R shape and node count
  unsigned sectors_per_partition = 0;     // Winning 1; Window 2349 (32 GiB), 2300 (64 GiB), 2 (test sizes)
  unsigned challenges_per_sector = 0;     // Winning 66; Window 10
};

}  // namespace cuzk::porep
