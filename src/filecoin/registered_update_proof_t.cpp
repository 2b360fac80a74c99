#include "filecoin/registered_update_proof_t.hpp"

#include <array>

#include "filecoin/registered_lookup.hpp"
#include "filecoin/registered_seal_proof_t.hpp"

namespace cuzk::filecoin {
namespace {

constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;

constexpr std::array<registered_update_proof_t, 5> table{{
    {0, 2 * kib},
    {1, 8 * mib},
    {2, 512 * mib},
    {3, 32 * gib},
    {4, 64 * gib},
}};

constexpr registered_lookup_t<registered_update_proof_t> lookup{
    .table = table,
    .family = "update",
    .id_ranges = "0..4 (StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1)",
    .name_examples = "\"StackedDrg32GiBV1\"",
    .has_name = [](const registered_update_proof_t& p, std::string_view name) { return p.name() == name; },
};
static_assert(lookup.in_id_order());

}  // namespace

std::string registered_update_proof_t::name() const { return "StackedDrg" + sector_size_name(sector_bytes) + "V1"; }

porep::snap_shape_t registered_update_proof_t::shape() const { return porep::snap_shape_for(sector_bytes); }

std::span<const registered_update_proof_t> registered_update_proofs() { return table; }

const registered_update_proof_t& update_proof_by_id(std::uint64_t id) { return lookup.by_id(id); }

const registered_update_proof_t& update_proof_by_name(std::string_view name) { return lookup.by_name(name); }

std::optional<std::uint64_t> parse_registered_update_proof(std::string_view text) { return lookup.parse(text); }

}  // namespace cuzk::filecoin
