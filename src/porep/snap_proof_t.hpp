#pragma once
// A SnapDeals (EmptySectorUpdate) partition's vanilla proof as rust-fil-proofs
// models it (storage-proofs-update vanilla.rs PartitionProof, ChallengeProof),
// and the public inputs it answers to. The native types that the bincode
// reader (filecoin/snap_bincode), the generator and checker
// (porep/snap_vanilla) and the circuit (circuits/snap_circuit) share.
#include <cstdint>
#include <vector>

#include "ff/fr.hpp"
#include "porep/merkle_path_t.hpp"

namespace cuzk::porep {

// One MerkleProof as upstream keeps it: the leaf, its index (the path's
// slots), the path and the root it claims.
struct snap_opening_t {
  std::uint64_t leaf_index = 0;
  ff::fr_t leaf;
  merkle_path_t path;
  ff::fr_t root;
};

// One challenge: the old replica's leaf in Tree R old, the new data's leaf in
// Tree D new (binary SHA-256, up to comm_d_new), the new replica's leaf in
// Tree R new; new = old + data * rho.
struct snap_challenge_proof_t {
  snap_opening_t r_old, d_new, r_new;
};

struct snap_partition_proof_t {
  ff::fr_t comm_c;
  std::vector<ff::fr_t> apex_leaves;  // this partition's row of Tree D at apex_height
  std::vector<snap_challenge_proof_t> challenges;
};

// PublicInputs of vanilla.rs; the circuit packs k and h into one input.
struct snap_public_t {
  unsigned k = 0;
  ff::fr_t comm_r_old;
  ff::fr_t comm_d_new;
  ff::fr_t comm_r_new;
  unsigned h = 0;
};

// One partition as the circuit proves it: its public inputs and vanilla proof.
struct snap_partition_t {
  snap_public_t pub;
  snap_partition_proof_t proof;
};

}  // namespace cuzk::porep
