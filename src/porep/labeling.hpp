#pragma once
// SDR labeling, encoding and replica_id (rust-fil-proofs
// stacked/vanilla/create_label, encode.rs, porep/mod.rs; FILECOIN_POREP.md §5).
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "porep/challenges.hpp"
#include "porep/sector_params_t.hpp"
#include "porep/stacked_graph_t.hpp"

namespace cuzk::porep {

// label = trim(SHA-256(replica_id ‖ layer u32 BE ‖ node u64 BE ‖ 0^20 ‖ 37 parent slots)).
// parent_labels: for layer 1 the 6 DRG parents' layer-1 labels; for layer >= 2
// the 6 DRG parents' layer-L labels then the 8 expander parents' layer-(L-1)
// labels. The 37 slots repeat them (P×6 + P[0], or P ‖ P ‖ P[0..9]).
// Node 0 hashes only the 64-byte header and ignores parent_labels.
// Throws std::invalid_argument if the parent count does not fit the layer.
ff::fr_t compute_label(const ff::fr_t& replica_id, unsigned layer, std::uint64_t node,
                       std::span<const ff::fr_t> parent_labels);

// Every label of every layer for a whole sector: result[L-1][v]. Cost: nodes ×
// layers SHA-256 of 1248 bytes (20 compressions each).
std::vector<std::vector<ff::fr_t>> label_all_layers(const stacked_graph_t& graph, const ff::fr_t& replica_id,
                                                    unsigned layers);

// replica_id = trim(SHA-256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d LE ‖ porep_id)).
ff::fr_t compute_replica_id(const bytes32_t& prover_id, std::uint64_t sector_id, const bytes32_t& ticket,
                            const ff::fr_t& comm_d, const bytes32_t& porep_id);

// Interactive challenge j (= chal_per_partition·k + i), in [1, nodes-1]:
// (LE_int(SHA-256(replica_id ‖ seed ‖ j u32 LE)) mod (nodes-1)) + 1 (§6).
std::uint64_t derive_challenge(const ff::fr_t& replica_id, const bytes32_t& seed, std::uint32_t j,
                               std::uint64_t nodes);

// The interactive challenges of partition k, in order. Throws
// std::invalid_argument when p.feature is not none: synthetic and
// non-interactive challenges hang on comm_r too (challenges.hpp).
std::vector<std::uint64_t> partition_challenges(const sector_params_t& p, const ff::fr_t& replica_id,
                                                const bytes32_t& seed, unsigned k);

}  // namespace cuzk::porep
