#pragma once
// One challenged sector's PoSt vanilla proof as Curio sends it in
// SubmitProofRequest.vanilla_proofs: bincode 1.x of filecoin-proofs'
// FallbackPoStSectorProof, as rust-filecoin-proofs-api post.rs
// generate_single_vanilla_proof returns it (FILECOIN_FORMATS.md §1, §3):
//   sector_id u64, comm_r [u8; 32],
//   vanilla_proof: Proof { sectors: Vec<SectorProof> }         (one SectorProof)
//   SectorProof { inclusion_proofs: Vec<MerkleProof<Poseidon, tree arities>>,
//                 comm_c [u8; 32], comm_r_last [u8; 32] }
// with MerkleProof as bincode_writer_t.hpp describes it. Every count is
// checked against the registered proof's shape (10 inclusion proofs for
// Window, 66 for Winning; the sector size's Tree R levels and arities; the
// ProofData variant: Single 8-0-0, Sub 8-8-0, Top 8-8-2), every element is a
// canonical field element and every path index below its level's arity, and
// every inclusion proof's root is comm_r_last. Errors are
// porep::vanilla_format_error naming the field
// ("vanilla_proof.sectors[0].inclusion_proofs[3].data.Sub.base_proof.path[2].hashes[5]")
// and the byte offset. What needs the randomness (leaf indices, paths,
// comm_r) is porep::check_post_sector's.
#include <cstdint>
#include <span>
#include <string>

#include "filecoin/registered_post_proof_t.hpp"
#include "porep/post_proof_t.hpp"
#include "porep/vanilla_format_error.hpp"

namespace cuzk::filecoin {

porep::post_sector_proof_t read_post_sector_bincode(std::span<const std::uint8_t> bytes,
                                                    const registered_post_proof_t& proof);

// Throws std::invalid_argument when `sector` does not have the proof's shape.
std::string write_post_sector_bincode(const porep::post_sector_proof_t& sector, const registered_post_proof_t& proof);

// The exact length of every blob of this registered proof (e.g. 24,960 bytes
// for a 32 GiB Window sector: 10 Sub proofs of 2,484 bytes plus 120).
std::uint64_t post_sector_bincode_size(const registered_post_proof_t& proof);

}  // namespace cuzk::filecoin
