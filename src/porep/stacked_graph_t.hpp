#pragma once
// The stacked DRG of Filecoin PoRep: 6 bucket-sampled DRG parents (same layer)
// and 8 Feistel expander parents (previous layer) per node, exactly as
// rust-fil-proofs v19 computes them (storage-proofs-core drgraph.rs,
// storage-proofs-porep stacked/vanilla/graph.rs; FILECOIN_POREP.md §4).
#include <array>
#include <cstdint>

#include "porep/api_version_t.hpp"
#include "porep/feistel_t.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::porep {

using drg_parents_t = std::array<std::uint64_t, drg_degree>;
using exp_parents_t = std::array<std::uint64_t, expansion_degree>;

class stacked_graph_t {
 public:
  stacked_graph_t(std::uint64_t nodes, const bytes32_t& porep_id, api_version_t version);
  explicit stacked_graph_t(const sector_params_t& p) : stacked_graph_t(p.nodes, p.porep_id(), p.api_version) {}

  std::uint64_t nodes() const { return nodes_; }
  api_version_t version() const { return version_; }
  // Not sorted; duplicates possible; node 0 and 1 get six 0s.
  drg_parents_t drg_parents(std::uint64_t v) const;
  // Indices into the previous layer; may be >= v.
  exp_parents_t exp_parents(std::uint64_t v) const;

 private:
  std::uint64_t nodes_;
  api_version_t version_;
  std::array<std::uint8_t, 28> drg_seed_{};  // SHA-256("Filecoin_DRSample" ‖ porep_id)[0..28]
  feistel_t feistel_;
};

}  // namespace cuzk::porep
