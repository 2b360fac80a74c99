#pragma once
// From porep-native's vanilla proof (the C1-output equivalent) to what the
// partition circuit reads (FILECOIN_POREP.md §8 "Witness sources"): merkle
// paths flattened leaf to root, labels of the challenged column dropped (the
// circuit recomputes them), the Tree R leaf dropped (recomputed by encoding).
#include <memory>

#include "circuits/porep_circuit_shape_t.hpp"
#include "circuits/porep_partition_witness_t.hpp"
#include "porep/vanilla_proof_t.hpp"

namespace cuzk::circuits {

// Throws std::invalid_argument when `partition` is out of range.
std::shared_ptr<const porep_partition_witness_t> porep_witness_from_vanilla(const porep::vanilla_proof_t& proof,
                                                                           unsigned partition);

}  // namespace cuzk::circuits
