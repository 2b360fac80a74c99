#pragma once
// supra_seal's C1 output: bincode 1.x (little-endian fixed-width integers, u64
// lengths, u32 enum tags, [u8; 32] as 32 raw bytes) of rust-fil-proofs'
// SealCommitPhase1Output<Tree> (filecoin-proofs src/types/mod.rs):
//   vanilla_proofs: Vec<Vec<Proof>>, comm_r, comm_d, replica_id, seed, ticket
// with no registered proof (the request names it). Proof and its parts as in
// FILECOIN_FORMATS.md §2, fields in declaration order; MerkleProof's ProofData
// tag 0 Single {root, leaf, path}, 1 Sub {base_proof, sub_proof, root, leaf},
// 2 Top {base_proof, sub_proof, top_proof, root, leaf}; PathElement {hashes:
// Vec, index: u64}; Column {index: u32, rows: Vec} (PhantomData: 0 bytes);
// LabelingProof / EncodingProof {parents: Vec, layer_index: u32, node: u64}.
//
// Read one challenge at a time into the JSON reader's checks (c1_assembly.hpp),
// so every value is checked as for the JSON and errors name the same paths,
// plus the byte offset for a structural error.
#include <cstdint>
#include <span>
#include <string>

#include "filecoin/c1_output_t.hpp"
#include "porep/vanilla_format_error.hpp"

namespace cuzk::filecoin {

c1_output_t read_c1_bincode(std::span<const std::uint8_t> bytes, const registered_seal_proof_t& proof);
std::string write_c1_bincode(const c1_output_t& c1);

}  // namespace cuzk::filecoin
