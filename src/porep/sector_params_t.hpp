#pragma once
// Public parameters of one Filecoin PoRep sector size, as rust-fil-proofs
// v19 sets them (filecoin-proofs constants.rs / parameters.rs; table in
// FILECOIN_POREP.md §1).
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "porep/api_version_t.hpp"

namespace cuzk::porep {

inline constexpr unsigned drg_degree = 6;         // BASE_DEGREE (drgraph.rs)
inline constexpr unsigned expansion_degree = 8;   // EXP_DEGREE (stacked/vanilla/graph.rs)
inline constexpr unsigned total_parents = drg_degree + expansion_degree;
inline constexpr unsigned label_parent_slots = 37;  // 1248-byte preimage = 64 + 37 * 32
inline constexpr std::size_t node_bytes = 32;

using bytes32_t = std::array<std::uint8_t, 32>;

struct sector_params_t {
  std::uint64_t sector_bytes = 0;
  std::uint64_t nodes = 0;          // sector_bytes / 32
  unsigned layers = 0;
  unsigned partitions = 0;
  unsigned challenges_per_partition = 0;
  // Tree C / Tree R shape "base-sub-top": 8-0-0, 8-8-0 or 8-8-2.
  unsigned base_arity = 8;
  unsigned sub_arity = 0;
  unsigned top_arity = 0;
  std::uint64_t base_tree_leaves = 0;  // leaves of one base tree
  unsigned base_tree_count = 1;
  unsigned tree_d_depth = 0;           // binary levels of Tree D
  std::uint64_t registered_proof_id = 0;  // for porep_id (API registry.rs)
  // A porep_id other than the registered proof's (upstream's test records use
  // arbitrary ones, e.g. 0x7f repeated); it seeds the graph as usual.
  std::optional<bytes32_t> porep_id_override;
  api_version_t api_version = api_version_t::v1_1;
  porep_feature_t feature = porep_feature_t::none;  // how challenges are drawn

  // Arity of each Tree C / Tree R level, leaf to root (base levels, then sub, then top).
  std::vector<unsigned> tree_cr_arities() const;
  // Arity of each Tree D level: depth times 2.
  std::vector<unsigned> tree_d_arities() const { return std::vector<unsigned>(tree_d_depth, 2u); }
  // 32 bytes: registered-proof id u64 LE, nonce 0 u64 LE, 16 zero bytes (API
  // registry.rs), unless porep_id_override is set.
  bytes32_t porep_id() const;
  unsigned total_challenges() const { return partitions * challenges_per_partition; }
};

// The five production sizes: 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB. Throws
// std::invalid_argument (naming the size) for any other byte count, and for
// NonInteractivePoRep (not supported: another circuit shape).
sector_params_t sector_params_for(std::uint64_t sector_bytes, api_version_t v = api_version_t::v1_1,
                                  porep_feature_t feature = porep_feature_t::none);

// "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (also "2K", "32G", …) or a plain
// byte count. Throws std::invalid_argument for a malformed or unsupported size.
std::uint64_t parse_sector_size(std::string_view s);
// The same syntax for any byte count (the SnapDeals test shapes, 1 KiB …
// 32 KiB, are no PoRep sizes); std::invalid_argument when malformed.
std::uint64_t parse_byte_size(std::string_view s);

}  // namespace cuzk::porep
