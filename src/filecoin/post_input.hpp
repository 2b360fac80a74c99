#pragma once
// A WindowPoSt or WinningPoSt request (SubmitProofRequest: registered_proof,
// vanilla_proofs, randomness, miner_id, partition_index; CUZK_API.md 2.2,
// FILECOIN_FORMATS.md §3) read into the one partition the circuit proves:
// every blob read as bincode FallbackPoStSectorProof of the registered
// proof's shape (post_bincode.hpp), every sector checked against the
// challenges the randomness draws for it (porep::check_post_sector, under
// the registered proof's API version and the sector's position among the
// request's sectors: partition_index x sectors_per_partition + i), then a
// short Window partition padded by repeating its last sector, as upstream's
// prover and verifier both do.
//
// The miner id only gives the prover id, which WinningPoSt's sector choice
// uses (which of the miner's sectors is challenged); the request does not say
// how many sectors the miner has, so that choice is Curio's to make and not
// checked here. Every error is std::invalid_argument naming the request field
// and, inside a blob, the element and sector ("vanilla_proofs[1].inclusion_
// proofs[3].path[0][2]: ... (sector 7)").
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "filecoin/registered_post_proof_t.hpp"
#include "porep/post_proof_t.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::filecoin {

struct post_request_t {
  porep::post_kind_t kind = porep::post_kind_t::window;  // what proof_kind asks for
  std::uint64_t registered_proof = 0;                    // FFI id 0..14
  std::span<const std::vector<std::uint8_t>> vanilla_proofs;
  std::span<const std::uint8_t> randomness;  // exactly 32 bytes
  std::uint64_t miner_id = 0;
  std::uint32_t partition_index = 0;  // Window; must be 0 for Winning
};

struct post_input_t {
  const registered_post_proof_t* proof = nullptr;
  porep::post_shape_t shape;
  std::vector<porep::post_sector_proof_t> sectors;  // padded to shape.sectors_per_partition
  std::size_t real_sectors = 0;                     // how many the request sent
  porep::bytes32_t randomness{};
  porep::bytes32_t prover_id{};
  std::uint32_t partition_index = 0;
  std::vector<ff::fr_t> public_inputs;  // the partition's, ONE excluded (circuits/post_public_inputs)
};

post_input_t read_post_request(const post_request_t& r);

}  // namespace cuzk::filecoin
