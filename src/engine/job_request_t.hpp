#pragma once
// One proof request, as the service receives it (SubmitProofRequest) plus our
// `circuit` kind. Field meanings for the Filecoin kinds are in CUZK_API.md 2.2.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/priority_t.hpp"
#include "engine/proof_kind_t.hpp"

namespace cuzk::engine {

struct job_request_t {
  std::string request_id;  // becomes the job id; empty -> a random UUIDv4
  proof_kind_t proof_kind = proof_kind_t::unspecified;
  priority_t priority = priority_t::unspecified;

  // Filecoin kinds. porep_seal_commit: vanilla_proof is what Curio sends
  // (its envelope of the C1 output), a bare C1 output JSON, supra_seal's
  // bincode C1 or our vanilla-proof JSON (filecoin/porep_input.hpp); one job
  // proves all its partitions; sector_size and registered_proof, when
  // nonzero, must match it, and miner_id with sector_number (or the
  // envelope's SectorNum) must give its replica_id. The other kinds are
  // refused with invalid_request.
  uint64_t sector_size = 0;
  uint64_t registered_proof = 0;
  std::vector<uint8_t> vanilla_proof;                // PoRep
  std::vector<std::vector<uint8_t>> vanilla_proofs;  // PoSt / Snap
  uint64_t sector_number = 0;
  uint64_t miner_id = 0;
  std::vector<uint8_t> randomness;
  uint32_t partition_index = 0;
  std::vector<uint8_t> comm_r_old, comm_r_new, comm_d_new;

  // Kind `circuit`: a built-in circuit by name ("tiny", "hash-chain") and size
  // (0 = its default). circuit_input is JSON text as for `cuzk prove --input`
  // (circuits/circuit_input.hpp): empty = the built-in witness, an object = one
  // witness, an array of objects = one partition per element. `partitions`
  // repeats an empty or object input that many times (1..1024).
  std::string circuit;
  uint64_t circuit_size = 0;
  std::string circuit_input;
  uint32_t partitions = 1;

  // Record per-partition stage times, read back with engine_t::timeline_json.
  bool timeline = false;
};

}  // namespace cuzk::engine
