#pragma once
// What replica_id is derived from besides comm_d and porep_id
// (rust-fil-proofs porep generate_replica_id). Optional in a vanilla proof:
// the sparse model picks replica_id at random, because its challenges (which
// hang on replica_id) must be known before its Tree D, hence comm_d, exists.
#include <cstdint>

#include "porep/sector_params_t.hpp"

namespace cuzk::porep {

struct replica_id_inputs_t {
  bytes32_t prover_id{};
  std::uint64_t sector_id = 0;
  bytes32_t ticket{};
};

}  // namespace cuzk::porep
