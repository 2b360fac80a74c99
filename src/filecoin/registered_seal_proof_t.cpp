#include "filecoin/registered_seal_proof_t.hpp"

#include <array>
#include <stdexcept>

#include "filecoin/registered_lookup.hpp"

namespace cuzk::filecoin {
namespace {

constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;
constexpr std::array<std::uint64_t, 5> sizes{2 * kib, 8 * mib, 512 * mib, 32 * gib, 64 * gib};
constexpr std::array<seal_version_t, 4> versions{seal_version_t::v1, seal_version_t::v1_1,
                                                 seal_version_t::v1_1_synthetic,
                                                 seal_version_t::v1_2_non_interactive};

constexpr std::array<registered_seal_proof_t, 20> make_table() {
  std::array<registered_seal_proof_t, 20> t{};
  for (std::size_t v = 0; v < versions.size(); ++v)
    for (std::size_t s = 0; s < sizes.size(); ++s) t[5 * v + s] = {5 * v + s, sizes[s], versions[v]};
  return t;
}

constexpr auto table = make_table();

constexpr registered_lookup_t<registered_seal_proof_t> lookup{
    .table = table,
    .family = "seal",
    .id_ranges = "0..19 (0-4 V1, 5-9 V1_1, 10-14 SyntheticPoRep, 15-19 NonInteractive)",
    .name_examples = "\"StackedDrg32GiBV1_1\"",
    .has_name = [](const registered_seal_proof_t& p, std::string_view name) { return p.name() == name; },
};
static_assert(lookup.in_id_order());

std::string_view version_suffix(seal_version_t v) {
  switch (v) {
    case seal_version_t::v1: return "V1";
    case seal_version_t::v1_1: return "V1_1";
    case seal_version_t::v1_1_synthetic: return "V1_1_Feat_SyntheticPoRep";
    case seal_version_t::v1_2_non_interactive: return "V1_2_Feat_NonInteractivePoRep";
  }
  return "?";
}

}  // namespace

std::string sector_size_name(std::uint64_t b) {
  if (b >= gib && b % gib == 0) return std::to_string(b / gib) + "GiB";
  if (b >= mib && b % mib == 0) return std::to_string(b / mib) + "MiB";
  if (b >= kib && b % kib == 0) return std::to_string(b / kib) + "KiB";
  return std::to_string(b) + "B";
}

std::string registered_seal_proof_t::name() const {
  return "StackedDrg" + sector_size_name(sector_bytes) + std::string(version_suffix(version));
}

std::string registered_seal_proof_t::vanilla_variant() const {
  return "StackedDrg" + sector_size_name(sector_bytes) + "V1";
}

porep::api_version_t registered_seal_proof_t::api_version() const {
  switch (version) {
    case seal_version_t::v1: return porep::api_version_t::v1_0;
    case seal_version_t::v1_1:
    case seal_version_t::v1_1_synthetic: return porep::api_version_t::v1_1;
    case seal_version_t::v1_2_non_interactive: return porep::api_version_t::v1_2;
  }
  return porep::api_version_t::v1_1;
}

porep::porep_feature_t registered_seal_proof_t::feature() const {
  switch (version) {
    case seal_version_t::v1_1_synthetic: return porep::porep_feature_t::synthetic;
    case seal_version_t::v1_2_non_interactive: return porep::porep_feature_t::non_interactive;
    default: return porep::porep_feature_t::none;
  }
}

porep::sector_params_t registered_seal_proof_t::sector_params() const {
  if (version == seal_version_t::v1_2_non_interactive)
    throw std::invalid_argument(name() + " (NonInteractivePoRep) is not supported by this build: its partitions "
                                         "hold other challenge counts (another circuit); seal with V1_1 or "
                                         "V1_1_Feat_SyntheticPoRep");
  auto p = porep::sector_params_for(sector_bytes, api_version(), feature());
  if (p.registered_proof_id != id)
    throw std::logic_error("registered seal proof " + name() + ": porep layer gives id " +
                           std::to_string(p.registered_proof_id));
  return p;
}

std::span<const registered_seal_proof_t> registered_seal_proofs() { return table; }

const registered_seal_proof_t& seal_proof_by_id(std::uint64_t id) { return lookup.by_id(id); }

const registered_seal_proof_t& seal_proof_by_name(std::string_view name) { return lookup.by_name(name); }

std::optional<std::uint64_t> parse_registered_seal_proof(std::string_view text) { return lookup.parse(text); }

const registered_seal_proof_t& seal_proof_for(std::uint64_t sector_bytes, seal_version_t version) {
  for (const auto& p : table)
    if (p.sector_bytes == sector_bytes && p.version == version) return p;
  throw std::invalid_argument("sector size " + std::to_string(sector_bytes) +
                              " bytes is not one of 2KiB, 8MiB, 512MiB, 32GiB, 64GiB");
}

porep::bytes32_t prover_id_from_miner(std::uint64_t miner_id) {
  porep::bytes32_t out{};
  std::size_t i = 0;
  do {
    std::uint8_t b = miner_id & 0x7f;
    miner_id >>= 7;
    out[i++] = std::uint8_t(b | (miner_id ? 0x80 : 0));
  } while (miner_id);
  return out;
}

}  // namespace cuzk::filecoin
