#include "filecoin/parameter_manifest_t.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "gadgets/sha256_native.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::filecoin {
namespace detail {
extern const std::string_view official_manifest_json;  // generated from parameters.json
}

namespace {

constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;

// parameter_cache.rs VERSION: the "v28-" of every name.
constexpr std::string_view cache_version_prefix = "v28-";

std::string sha256_hex(std::string_view s) {
  gadgets::sha256_ctx_t ctx;
  ctx.update({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()});
  std::string out;
  for (auto b : ctx.finish()) out += fmt::format("{:02x}", b);
  return out;
}

void check_size(std::uint64_t sector_bytes) {
  if (sector_bytes != 2 * kib && sector_bytes != 8 * mib && sector_bytes != 512 * mib && sector_bytes != 32 * gib &&
      sector_bytes != 64 * gib) {
    throw std::invalid_argument(fmt::format(
        "sector size {} bytes has no official parameters (sizes: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB)", sector_bytes));
  }
}

// Tree::display() (storage-proofs-core merkle/tree.rs): "merkletree-<hasher>-<base>-<sub>-<top>".
std::string tree_display(std::uint64_t sector_bytes) {
  if (sector_bytes == 64 * gib) return "merkletree-poseidon_hasher-8-8-2";
  if (sector_bytes == 32 * gib) return "merkletree-poseidon_hasher-8-8-0";
  return "merkletree-poseidon_hasher-8-0-0";
}

std::string porep_stem(std::uint64_t sector_bytes) {
  const auto p = porep::sector_params_for(sector_bytes);
  // StackedGraph::new (graph.rs) around BucketGraph::identifier (drgraph.rs).
  const std::string graph = fmt::format(
      "stacked_graph::StackedGraph{{expansion_degree: {} base_graph: drgraph::BucketGraph{{size: {}; degree: {}; "
      "hasher: poseidon_hasher}} }}",
      porep::expansion_degree, p.nodes, porep::drg_degree);
  const std::string tree = fmt::format("merkletree-poseidon_hasher-{}-{}-{}", p.base_arity, p.sub_arity, p.top_arity);
  // stacked/vanilla/params.rs: "must stay the same at all times".
  const std::string id = fmt::format(
      "layered_drgporep::PublicParams{{ graph: {}, challenges: LayerChallenges {{ layers: {}, max_count: {} }}, "
      "tree: {} }}",
      graph, p.layers, p.challenges_per_partition, tree);
  // StackedCompound::cache_prefix (stacked/circuit/proof.rs): tree, then the TreeD hasher.
  return fmt::format("stacked-proof-of-replication-{}-sha256_hasher-{}", tree, sha256_hex(id));
}

std::string post_stem(std::uint64_t sector_bytes, bool winning) {
  // filecoin-proofs constants.rs: WINNING_POST_{CHALLENGE,SECTOR}_COUNT = 66, 1
  // (parameters.rs turns them into 66 sectors of 1 challenge each);
  // WINDOW_POST_CHALLENGE_COUNT = 10, WINDOW_POST_SECTOR_COUNT by size.
  const std::uint64_t challenges = winning ? 1 : 10;
  const std::uint64_t sectors = winning ? 66 : sector_bytes == 32 * gib ? 2349 : sector_bytes == 64 * gib ? 2300 : 2;
  const std::string id =
      fmt::format("FallbackPoSt::PublicParams{{sector_size: {}, challenge_count: {}, sector_count: {}}}",
                  sector_bytes, challenges, sectors);
  return fmt::format("proof-of-spacetime-fallback-{}-{}", tree_display(sector_bytes), sha256_hex(id));
}

std::string snap_stem(std::uint64_t sector_bytes, bool poseidon) {
  if (poseidon && sector_bytes < 32 * gib) {
    throw std::invalid_argument(
        fmt::format("snap-deals-poseidon has official parameters only for 32GiB and 64GiB, not {} bytes",
                    sector_bytes));
  }
  const std::string id = fmt::format("empty_sector_update::PublicParams{{ sector_nodes: {} }}", sector_bytes / 32);
  return fmt::format("empty-sector-update-{}{}-{}", poseidon ? "poseidon-" : "", tree_display(sector_bytes),
                     sha256_hex(id));
}

}  // namespace

std::string_view to_string(parameter_kind_t k) {
  switch (k) {
    case parameter_kind_t::porep: return "porep";
    case parameter_kind_t::winning_post: return "winning-post";
    case parameter_kind_t::window_post: return "window-post";
    case parameter_kind_t::snap_deals: return "snap-deals";
    case parameter_kind_t::snap_deals_poseidon: return "snap-deals-poseidon";
  }
  return "?";
}

parameter_manifest_t parameter_manifest_t::from_json(std::string_view text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("parameter manifest: ") + e.what());
  }
  if (!j.is_object()) throw std::invalid_argument("parameter manifest: expected a JSON object of file names");
  parameter_manifest_t m;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& name = it.key();
    const nlohmann::json& v = it.value();
    auto field = [&](const char* key) -> const nlohmann::json& {
      if (!v.is_object() || !v.contains(key)) {
        throw std::invalid_argument(fmt::format("parameter manifest: entry '{}' has no '{}'", name, key));
      }
      return v.at(key);
    };
    const auto& digest = field("digest");
    const auto& cid = field("cid");
    const auto& size = field("sector_size");
    if (!digest.is_string() || !cid.is_string() || !size.is_number_unsigned()) {
      throw std::invalid_argument(fmt::format("parameter manifest: entry '{}': cid and digest must be strings, "
                                              "sector_size an unsigned number",
                                              name));
    }
    m.entries_.push_back({name, cid.get<std::string>(), digest.get<std::string>(), size.get<std::uint64_t>()});
  }
  std::sort(m.entries_.begin(), m.entries_.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return m;
}

const parameter_manifest_t& parameter_manifest_t::official() {
  static const parameter_manifest_t m = from_json(detail::official_manifest_json);
  return m;
}

const manifest_entry_t* parameter_manifest_t::find(std::string_view file_name) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), file_name,
                             [](const manifest_entry_t& e, std::string_view n) { return e.name < n; });
  return it != entries_.end() && it->name == file_name ? &*it : nullptr;
}

std::string parameter_stem(parameter_kind_t kind, std::uint64_t sector_bytes) {
  check_size(sector_bytes);
  switch (kind) {
    case parameter_kind_t::porep: return porep_stem(sector_bytes);
    case parameter_kind_t::winning_post: return post_stem(sector_bytes, true);
    case parameter_kind_t::window_post: return post_stem(sector_bytes, false);
    case parameter_kind_t::snap_deals: return snap_stem(sector_bytes, false);
    case parameter_kind_t::snap_deals_poseidon: return snap_stem(sector_bytes, true);
  }
  throw std::invalid_argument("unknown parameter kind");
}

parameter_files_t parameter_files(parameter_kind_t kind, std::uint64_t sector_bytes) {
  const std::string base = std::string(cache_version_prefix) + parameter_stem(kind, sector_bytes);
  return {base + ".params", base + ".vk"};
}

std::optional<std::uint64_t> porep_sector_of_circuit_id(std::string_view id) {
  if (id == "porep-2k") return 2 * kib;
  if (id == "porep-8m") return 8 * mib;
  if (id == "porep-512m") return 512 * mib;
  if (id == "porep-32g") return 32 * gib;
  if (id == "porep-64g") return 64 * gib;
  return std::nullopt;
}

namespace {

constexpr std::uint64_t official_sizes[] = {2 * kib, 8 * mib, 512 * mib, 32 * gib, 64 * gib};

std::string size_suffix(std::uint64_t b) {
  if (b % gib == 0) return std::to_string(b / gib) + "g";
  if (b % mib == 0) return std::to_string(b / mib) + "m";
  return std::to_string(b / kib) + "k";
}

}  // namespace

std::string post_circuit_id(parameter_kind_t kind, std::uint64_t sector_bytes) {
  if (std::find(std::begin(official_sizes), std::end(official_sizes), sector_bytes) == std::end(official_sizes))
    throw std::invalid_argument("no PoSt circuit for sectors of " + std::to_string(sector_bytes) + " bytes");
  if (kind == parameter_kind_t::window_post) return "wpost-" + size_suffix(sector_bytes);
  if (kind == parameter_kind_t::winning_post) return "winning-" + size_suffix(sector_bytes);
  throw std::invalid_argument("post_circuit_id: " + std::string(to_string(kind)) + " is not a PoSt kind");
}

std::string snap_circuit_id(std::uint64_t sector_bytes) {
  if (std::find(std::begin(official_sizes), std::end(official_sizes), sector_bytes) == std::end(official_sizes))
    throw std::invalid_argument("no SnapDeals circuit for sectors of " + std::to_string(sector_bytes) + " bytes");
  return "snap-" + size_suffix(sector_bytes);
}

std::optional<official_circuit_t> official_circuit_of_id(std::string_view id) {
  if (auto s = porep_sector_of_circuit_id(id)) return official_circuit_t{parameter_kind_t::porep, *s};
  for (auto kind : {parameter_kind_t::window_post, parameter_kind_t::winning_post})
    for (auto size : official_sizes)
      if (id == post_circuit_id(kind, size)) return official_circuit_t{kind, size};
  for (auto size : official_sizes)
    if (id == snap_circuit_id(size)) return official_circuit_t{parameter_kind_t::snap_deals, size};
  return std::nullopt;
}

std::string default_parameter_cache() {
  // The variable Filecoin tools (lotus, curio, the Rust daemon) use.
  if (const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE"); env != nullptr && env[0] != 0) return env;
  return std::string(default_parameter_cache_dir);
}

}  // namespace cuzk::filecoin
