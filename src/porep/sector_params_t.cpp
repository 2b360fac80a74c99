#include "porep/sector_params_t.hpp"

#include <bit>
#include <charconv>
#include <stdexcept>
#include <string>

namespace cuzk::porep {

std::string_view to_string(api_version_t v) {
  switch (v) {
    case api_version_t::v1_0: return "1.0";
    case api_version_t::v1_1: return "1.1";
    case api_version_t::v1_2: return "1.2";
  }
  return "?";
}

std::string_view to_string(porep_feature_t f) {
  switch (f) {
    case porep_feature_t::none: return "";
    case porep_feature_t::synthetic: return "SyntheticPoRep";
    case porep_feature_t::non_interactive: return "NonInteractivePoRep";
  }
  return "?";
}

api_version_t parse_api_version(std::string_view s) {
  if (s == "1.0" || s == "1.0.0" || s == "V1_0_0") return api_version_t::v1_0;
  if (s == "1.1" || s == "1.1.0" || s == "V1_1_0") return api_version_t::v1_1;
  if (s == "1.2" || s == "1.2.0" || s == "V1_2_0") return api_version_t::v1_2;
  throw std::invalid_argument("api_version: expected \"1.0\", \"1.1\" or \"1.2\", got \"" + std::string(s) + "\"");
}

porep_feature_t parse_porep_feature(std::string_view s) {
  if (s.empty() || s == "none") return porep_feature_t::none;
  if (s == "SyntheticPoRep") return porep_feature_t::synthetic;
  if (s == "NonInteractivePoRep") return porep_feature_t::non_interactive;
  throw std::invalid_argument("api feature: expected \"SyntheticPoRep\" or \"NonInteractivePoRep\", got \"" +
                              std::string(s) + "\"");
}

std::vector<unsigned> sector_params_t::tree_cr_arities() const {
  std::vector<unsigned> a;
  for (std::uint64_t n = base_tree_leaves; n > 1; n /= base_arity) a.push_back(base_arity);
  if (sub_arity) a.push_back(sub_arity);
  if (top_arity) a.push_back(top_arity);
  return a;
}

bytes32_t sector_params_t::porep_id() const {
  if (porep_id_override) return *porep_id_override;
  bytes32_t id{};
  for (int i = 0; i < 8; ++i) id[i] = std::uint8_t(registered_proof_id >> (8 * i));
  return id;
}

sector_params_t sector_params_for(std::uint64_t sector_bytes, api_version_t v, porep_feature_t feature) {
  constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;
  sector_params_t p;
  p.sector_bytes = sector_bytes;
  p.nodes = sector_bytes / node_bytes;
  p.api_version = v;
  p.feature = feature;
  if (feature == porep_feature_t::non_interactive)
    throw std::invalid_argument("NonInteractivePoRep (V1_2_Feat_NonInteractivePoRep) is not supported: its circuit "
                                "aggregates many more challenges per partition than the interactive one");
  if (feature != porep_feature_t::none && v == api_version_t::v1_0)
    throw std::invalid_argument("api version 1.0 has no PoRep features");
  // Registered proof ids (API registry.rs): 0..4 at V1_0, 5..9 at V1_1,
  // 10..14 V1_1 with SyntheticPoRep, 15..19 V1_2 with NonInteractivePoRep.
  std::uint64_t size_rank;
  if (sector_bytes == 2 * kib) size_rank = 0;
  else if (sector_bytes == 8 * mib) size_rank = 1;
  else if (sector_bytes == 512 * mib) size_rank = 2;
  else if (sector_bytes == 32 * gib) size_rank = 3;
  else if (sector_bytes == 64 * gib) size_rank = 4;
  else
    throw std::invalid_argument("sector size " + std::to_string(sector_bytes) +
                                " bytes is not one of 2KiB, 8MiB, 512MiB, 32GiB, 64GiB");
  p.registered_proof_id = size_rank + (v == api_version_t::v1_0                ? 0
                                       : feature == porep_feature_t::synthetic ? 10
                                                                               : 5);
  if (size_rank < 3) {
    // Test sizes: min_challenges 2, one partition, 2 layers, tree 8-0-0.
    p.layers = 2;
    p.partitions = 1;
    p.challenges_per_partition = 2;
    p.base_tree_leaves = p.nodes;
  } else {
    // 176 minimum challenges over 10 partitions: ceil(176/10) = 18.
    p.layers = 11;
    p.partitions = 10;
    p.challenges_per_partition = 18;
    p.sub_arity = 8;
    p.top_arity = size_rank == 4 ? 2 : 0;
    p.base_tree_count = size_rank == 4 ? 16 : 8;
    p.base_tree_leaves = p.nodes / p.base_tree_count;
  }
  p.tree_d_depth = unsigned(std::countr_zero(p.nodes));
  return p;
}

std::uint64_t parse_byte_size(std::string_view s) {
  std::uint64_t n = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || ptr == s.data())
    throw std::invalid_argument("sector size \"" + std::string(s) + "\": expected e.g. 2KiB, 32GiB or a byte count");
  std::string_view unit(ptr, s.data() + s.size() - ptr);
  std::uint64_t mult = 0;
  if (unit.empty() || unit == "B") mult = 1;
  else if (unit == "KiB" || unit == "K" || unit == "k") mult = std::uint64_t(1) << 10;
  else if (unit == "MiB" || unit == "M") mult = std::uint64_t(1) << 20;
  else if (unit == "GiB" || unit == "G") mult = std::uint64_t(1) << 30;
  else
    throw std::invalid_argument("sector size \"" + std::string(s) + "\": unknown unit \"" + std::string(unit) +
                                "\" (use KiB, MiB, GiB or bytes)");
  return n * mult;
}

std::uint64_t parse_sector_size(std::string_view s) {
  const std::uint64_t bytes = parse_byte_size(s);
  sector_params_for(bytes);  // rejects unsupported sizes with a clear message
  return bytes;
}

}  // namespace cuzk::porep
