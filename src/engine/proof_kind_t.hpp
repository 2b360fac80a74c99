#pragma once
// What a job proves. The numbers 1..4 mirror cuzk.v1.ProofKind on the wire
// (CUZK_API.md 2.1) so the service converts with a cast after range checks;
// `circuit` is our extension for the built-in circuits (circuits/circuit_registry.hpp).
#include <cstdint>
#include <string_view>

namespace cuzk::engine {

enum class proof_kind_t : uint32_t {
  unspecified = 0,
  porep_seal_commit = 1,
  snap_deals_update = 2,
  window_post_partition = 3,
  winning_post = 4,
  circuit = 100,
};

// The label the daemon we replace uses in GetStatus queues and /status:
// "porep-c2", "snap-update", "window-post", "winning-post"; ours: "circuit".
std::string_view proof_kind_name(proof_kind_t kind);
// The Prometheus label (CUZK_API.md 5.1): "porep_c2", "snap_update", ...
std::string_view proof_kind_metric_label(proof_kind_t kind);

}  // namespace cuzk::engine
