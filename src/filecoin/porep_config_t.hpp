#pragma once
// The part of rust-fil-proofs' PoRepConfig (filecoin-proofs
// src/types/porep_config.rs) that fixes a seal proof's public inputs: sector
// size, partition count, porep_id, API version and feature. Unlike
// porep::sector_params_t it also describes NonInteractivePoRep, whose inputs
// we derive (to check records) although we refuse to prove it.
//
// Challenge counts (filecoin-proofs constants.rs, parameters.rs
// select_challenges): per partition ceil(minimum / partitions), at most 18
// (MAX_CHALLENGES_PER_PARTITION), with
//   minimum  = 2 (test sizes) or 176 (32/64 GiB) interactive and synthetic,
//              26 or 2253 non-interactive (ceil(12.8 × interactive));
//   partitions = 1 or 10 (POREP_PARTITIONS) interactive and synthetic,
//              13 or 126 non-interactive (get_porep_non_interactive_partitions),
// so every version has 2 (test sizes) or 18 challenges per partition and the
// same partition circuit.
#include <cstdint>

#include "filecoin/registered_seal_proof_t.hpp"
#include "porep/api_version_t.hpp"
#include "porep/challenge_shape_t.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::filecoin {

struct porep_config_t {
  std::uint64_t sector_bytes = 0;
  unsigned partitions = 0;
  porep::bytes32_t porep_id{};  // seeds the graph and replica_id; arbitrary in upstream's test records
  porep::api_version_t api_version = porep::api_version_t::v1_1;
  porep::porep_feature_t feature = porep::porep_feature_t::none;

  // Upstream's partition count for the size and feature (what
  // new_groth16_with_features sets). Throws std::invalid_argument for a size
  // upstream does not know (2K, 4K, 16K, 32K, 8M, 16M, 512M, 1G, 32G, 64G).
  static porep_config_t standard(std::uint64_t sector_bytes, porep::api_version_t v, porep::porep_feature_t f,
                                 const porep::bytes32_t& porep_id);
  // The registered proof's config: porep_id = id u64 LE ‖ nonce 0 u64 LE ‖ 0^16.
  static porep_config_t of(const registered_seal_proof_t& proof);

  std::uint64_t nodes() const { return sector_bytes / porep::node_bytes; }
  unsigned minimum_challenges() const;
  // ceil(minimum / partitions); throws std::invalid_argument above 18 or
  // for a zero partition count.
  unsigned challenges_per_partition() const;
  porep::challenge_shape_t challenge_shape() const;
};

}  // namespace cuzk::filecoin
