#include "filecoin/registered_post_proof_t.hpp"

#include <array>
#include <stdexcept>

#include "filecoin/registered_lookup.hpp"
#include "filecoin/registered_seal_proof_t.hpp"
#include "porep/post_shape.hpp"

namespace cuzk::filecoin {
namespace {

constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;
constexpr std::array<std::uint64_t, 5> sizes{2 * kib, 8 * mib, 512 * mib, 32 * gib, 64 * gib};

constexpr std::array<registered_post_proof_t, 15> make_table() {
  using porep::api_version_t;
  using porep::post_kind_t;
  std::array<registered_post_proof_t, 15> t{};
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    t[s] = {s, sizes[s], post_kind_t::winning, api_version_t::v1_0};
    t[5 + s] = {5 + s, sizes[s], post_kind_t::window, api_version_t::v1_0};
    t[10 + s] = {10 + s, sizes[s], post_kind_t::window, api_version_t::v1_2};
  }
  return t;
}

constexpr auto table = make_table();

// Ids 10..14 answer to both spellings.
constexpr registered_lookup_t<registered_post_proof_t> lookup{
    .table = table,
    .family = "PoSt",
    .id_ranges = "0..14 (0-4 Winning V1, 5-9 Window V1, 10-14 Window V1_1)",
    .name_examples = "\"StackedDrgWindow32GiBV1_1\", \"StackedDrgWinning32GiBV1\"",
    .has_name = [](const registered_post_proof_t& p, std::string_view name) {
      return p.name() == name || p.ffi_name() == name;
    },
};
static_assert(lookup.in_id_order());

std::string stem(const registered_post_proof_t& p) {
  return std::string(p.kind == porep::post_kind_t::winning ? "StackedDrgWinning" : "StackedDrgWindow") +
         sector_size_name(p.sector_bytes);
}

}  // namespace

std::string registered_post_proof_t::name() const {
  return stem(*this) + (api_version == porep::api_version_t::v1_2 ? "V1_2" : "V1");
}

std::string registered_post_proof_t::ffi_name() const {
  return stem(*this) + (api_version == porep::api_version_t::v1_2 ? "V1_1" : "V1");
}

porep::post_shape_t registered_post_proof_t::shape() const { return porep::post_shape_for(kind, sector_bytes); }

parameter_kind_t registered_post_proof_t::parameter_kind() const {
  return kind == porep::post_kind_t::winning ? parameter_kind_t::winning_post : parameter_kind_t::window_post;
}

std::span<const registered_post_proof_t> registered_post_proofs() { return table; }

const registered_post_proof_t& post_proof_by_id(std::uint64_t id) { return lookup.by_id(id); }

const registered_post_proof_t& post_proof_by_name(std::string_view name) { return lookup.by_name(name); }

std::optional<std::uint64_t> parse_registered_post_proof(std::string_view text) { return lookup.parse(text); }

const registered_post_proof_t& post_proof_for(porep::post_kind_t kind, std::uint64_t sector_bytes,
                                              porep::api_version_t v) {
  if (v == porep::api_version_t::v1_1) v = porep::api_version_t::v1_0;
  for (const auto& p : table)
    if (p.kind == kind && p.sector_bytes == sector_bytes && p.api_version == v) return p;
  throw std::invalid_argument(std::string(porep::to_string(kind)) + " PoSt of " + std::to_string(sector_bytes) +
                              " bytes at API " + std::string(porep::to_string(v)) +
                              " is not a registered PoSt proof (sizes 2KiB, 8MiB, 512MiB, 32GiB, 64GiB; Winning "
                              "at 1.0, Window at 1.0 or 1.2)");
}

}  // namespace cuzk::filecoin
