#pragma once
// A seal proof's public inputs exactly as rust-fil-proofs derives them when
// it verifies (filecoin-proofs src/api/seal.rs verify_seal / get_seal_inputs;
// storage-proofs-porep stacked/circuit/proof.rs generate_public_inputs),
// from the record alone: no vanilla proof. Per partition k, ONE excluded:
//   [0] replica_id  [1] comm_d  [2] comm_r
//   then per challenge c of partition k (challenges.hpp picks the rule):
//     c (Tree D path), its 6 DRG parents, its 8 expander parents (Tree C paths),
//     c (the UInt64 challenge), c (Tree R path), c (Tree C path of its column)
// Every inclusion contributes one input, the packed leaf index, whatever the
// tree's arities (storage-proofs-core gadgets/por.rs), so the layout is the
// same for every shape: 3 + 18·challenges_per_partition values (39 for test
// sizes, 327 for 32/64 GiB; the verifying key's IC holds one more, for ONE).
// Parents come from the stacked graph of (nodes, porep_id, api_version):
// V1_0 orders and truncates them differently, V1_1 and V1_2 agree.
#include <cstdint>
#include <vector>

#include "ff/fr.hpp"
#include "filecoin/porep_config_t.hpp"

namespace cuzk::filecoin {

// replica_id = trim(SHA-256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d ‖ porep_id))
// (storage-proofs-porep generate_replica_id). sector_id is the sector number.
ff::fr_t seal_replica_id(const porep_config_t& config, const porep::bytes32_t& prover_id, std::uint64_t sector_id,
                         const porep::bytes32_t& ticket, const ff::fr_t& comm_d);

// A commitment's 32 LE bytes as Fr (as_safe_commitment): throws
// std::invalid_argument naming `what` when the value is >= r or all zero
// (verify_seal refuses all-zero comm_d and comm_r).
ff::fr_t commitment_from_bytes(const porep::bytes32_t& bytes, const char* what);

// 3 + 18 · challenges_per_partition.
std::size_t seal_public_input_count(const porep_config_t& config);

// Partition k's challenges (the seed is ignored by NonInteractivePoRep).
std::vector<std::uint64_t> seal_partition_challenges(const porep_config_t& config, const ff::fr_t& replica_id,
                                                     const ff::fr_t& comm_r, const porep::bytes32_t& seed,
                                                     unsigned k);

// Partition k's public inputs, ONE excluded. Throws std::invalid_argument for
// k >= config.partitions, all-zero commitments or an impossible config.
std::vector<ff::fr_t> seal_public_inputs(const porep_config_t& config, const ff::fr_t& comm_r,
                                         const ff::fr_t& comm_d, const ff::fr_t& replica_id,
                                         const porep::bytes32_t& seed, unsigned k);

// Every partition's, in order (builds the graph once).
std::vector<std::vector<ff::fr_t>> seal_public_inputs_all(const porep_config_t& config, const ff::fr_t& comm_r,
                                                          const ff::fr_t& comm_d, const ff::fr_t& replica_id,
                                                          const porep::bytes32_t& seed);

}  // namespace cuzk::filecoin
