#pragma once
// One SnapDeals (EmptySectorUpdate) partition's vanilla proof as Lotus and
// Curio keep it: bincode 1.x of storage-proofs-update's PartitionProof, one
// blob per partition (vanilla.rs; FILECOIN_FORMATS.md §1, §4):
//   PartitionProof { comm_c [u8; 32], apex_leafs: Vec<[u8; 32]>,
//                    challenge_proofs: Vec<ChallengeProof> }
//   ChallengeProof { proof_r_old: MerkleProof<Poseidon, tree arities>,
//                    proof_d_new: MerkleProof<Sha256, U2>,
//                    proof_r_new: MerkleProof<Poseidon, tree arities> }
// with MerkleProof as bincode_writer_t.hpp describes it. Every count is
// checked against the shape (apex leaves, challenges, levels, siblings per
// level; the Tree R variant by the shape's sub/top arities, so the test sizes
// get theirs: 1 KiB 8-4-0 is Sub, 32 KiB 8-8-2 Top; Tree D is always Single
// with challenge_bit_len levels of one sibling), every element is a canonical
// field element (SHA-256 values too: the circuit takes them as Fr) and every
// path index is below its level's arity. Each opening's leaf index is the
// mixed-radix number of its path indices and its root is kept as stated:
// whether the roots agree with each other and with the commitments is
// porep::check_snap_partition's question. Errors are
// porep::vanilla_format_error naming the field as serde does
// ("challenge_proofs[3].proof_r_old.data.Sub.base_proof.path[2].hashes[5]")
// and the byte offset.
#include <cstdint>
#include <span>
#include <string>

#include "porep/snap_proof_t.hpp"
#include "porep/snap_shape.hpp"
#include "porep/vanilla_format_error.hpp"

namespace cuzk::filecoin {

porep::snap_partition_proof_t read_snap_partition_bincode(std::span<const std::uint8_t> bytes,
                                                          const porep::snap_shape_t& shape);

// The exact inverse of the reader. Throws std::invalid_argument when `proof`
// does not have the shape's counts, levels or siblings, or a leaf index
// beyond the sector.
std::string write_snap_partition_bincode(const porep::snap_partition_proof_t& proof, const porep::snap_shape_t& shape);

// The exact length of every partition blob of this shape (561,768 bytes at
// 32 GiB: 86 challenges of two Sub proofs of 2,484 bytes and a Tree D proof of
// 1,516, plus 128 apex leaves and 48 bytes).
std::uint64_t snap_partition_bincode_size(const porep::snap_shape_t& shape);

}  // namespace cuzk::filecoin
