#pragma once
// One sector's commit inputs: the C1-output equivalent that the stacked
// circuit consumes (rust-fil-proofs SealCommitPhase1Output; FILECOIN_POREP.md
// §10). JSON form: src/porep/vanilla_format.md.
#include <optional>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "porep/partition_proof_t.hpp"
#include "porep/replica_id_inputs_t.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::porep {

struct vanilla_proof_t {
  sector_params_t params;          // from sector_bytes and api_version
  std::string model;               // "replicated" (every node sealed) or "sparse"
  std::optional<replica_id_inputs_t> replica_id_inputs;
  ff::fr_t replica_id;
  bytes32_t seed{};                // interactive randomness for the challenges
  ff::fr_t comm_d, comm_c, comm_r_last, comm_r;
  std::vector<partition_proof_t> partitions;  // all params.partitions of them, in order
};

}  // namespace cuzk::porep
