// Filecoin's official parameter files: the compiled-in manifest, the names we
// derive for each circuit, file digests against independently computed
// BLAKE2b-512 values (python3 hashlib.blake2b, b2sum), directory checks, the
// digest-gated load (param_io, param_store_t), and the official files
// themselves where the default cache directory has them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "circuits/circuits.hpp"
#include "ec/off_subgroup_point.hpp"
#include "engine/memory_budget_t.hpp"
#include "engine/never_fits.hpp"
#include "engine/param_store_t.hpp"
#include "filecoin/parameter_digest.hpp"
#include "filecoin/parameter_manifest_t.hpp"
#include "groth16/groth16.hpp"
#include "error_of.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;
constexpr std::uint64_t sizes[] = {2 * kib, 8 * mib, 512 * mib, 32 * gib, 64 * gib};

struct temp_dir_t {
  fs::path path;
  explicit temp_dir_t(const std::string& name)
      : path(fs::temp_directory_path() / ("cuzk_params_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~temp_dir_t() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write_file(const fs::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

std::vector<std::uint8_t> read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::span<const std::uint8_t> as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace

TEST(parameter_manifest, has_one_porep_file_per_size_named_as_upstream) {
  const auto& m = parameter_manifest_t::official();
  for (auto size : sizes) {
    const auto files = porep_parameter_files(size);
    const auto* params = m.find(files.params);
    const auto* vk = m.find(files.vk);
    ASSERT_NE(params, nullptr) << files.params;
    ASSERT_NE(vk, nullptr) << files.vk;
    EXPECT_EQ(params->sector_size, size);
    EXPECT_EQ(vk->sector_size, size);
    EXPECT_EQ(params->digest.size(), 32u);
    EXPECT_EQ(porep_parameter_file(size), files.params);
    // Exactly one PoRep .params per size (V1, V1_1, synthetic and NI share it).
    int n = 0;
    for (const auto& e : m.entries()) {
      n += e.sector_size == size && e.name.starts_with("v28-stacked-proof-of-replication-") &&
           e.name.ends_with(".params");
    }
    EXPECT_EQ(n, 1) << size;
  }
  // FILECOIN_FORMATS.md §6 / FILECOIN_POREP.md §1.
  const auto p32 = porep_parameter_file(32 * gib);
  EXPECT_EQ(p32,
            "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
            "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params");
  EXPECT_NE(p32.find("-8-8-0-"), std::string::npos);
  EXPECT_NE(p32.find("82a357d2"), std::string::npos);
  EXPECT_EQ(m.find(p32)->digest, "6a388072a518cf46ebd661f5cc46900a");
  EXPECT_NE(porep_parameter_file(64 * gib).find("-8-8-2-sha256_hasher-96f1b4a0"), std::string::npos);
  EXPECT_NE(porep_parameter_file(2 * kib).find("-8-0-0-sha256_hasher-032d3138"), std::string::npos);
  EXPECT_EQ(m.find("v28-no-such-file.params"), nullptr);
}

TEST(parameter_manifest, derived_names_cover_every_entry) {
  // Every name we derive is in the manifest with its size, and every manifest
  // entry is one we derive: the derivation (parameter_manifest_t.hpp) is
  // upstream's, not a lookup that could pick the wrong one of two.
  const auto& m = parameter_manifest_t::official();
  std::set<std::string> derived;
  const parameter_kind_t kinds[] = {parameter_kind_t::porep, parameter_kind_t::winning_post,
                                    parameter_kind_t::window_post, parameter_kind_t::snap_deals,
                                    parameter_kind_t::snap_deals_poseidon};
  for (auto kind : kinds) {
    for (auto size : sizes) {
      if (kind == parameter_kind_t::snap_deals_poseidon && size < 32 * gib) {
        EXPECT_THROW(parameter_files(kind, size), std::invalid_argument);
        continue;
      }
      const auto f = parameter_files(kind, size);
      for (const auto& name : {f.params, f.vk}) {
        const auto* e = m.find(name);
        ASSERT_NE(e, nullptr) << to_string(kind) << " " << size << ": " << name;
        EXPECT_EQ(e->sector_size, size) << name;
        derived.insert(name);
      }
    }
  }
  std::set<std::string> listed;
  for (const auto& e : m.entries()) listed.insert(e.name);
  EXPECT_EQ(derived, listed);
  EXPECT_EQ(listed.size(), 44u);
  // Window and Winning differ by their hashes (FILECOIN_FORMATS.md §6).
  EXPECT_NE(parameter_files(parameter_kind_t::window_post, 32 * gib).params.find("0377ded6"), std::string::npos);
  EXPECT_NE(parameter_files(parameter_kind_t::winning_post, 32 * gib).params.find("559e581f"), std::string::npos);
  EXPECT_NE(parameter_files(parameter_kind_t::snap_deals, 32 * gib).params.find("empty-sector-update-merkletree"),
            std::string::npos);
  EXPECT_THROW(porep_parameter_file(4 * kib), std::invalid_argument);
}

TEST(parameter_manifest, circuit_ids_and_default_dir) {
  EXPECT_EQ(porep_sector_of_circuit_id("porep-2k"), 2 * kib);
  EXPECT_EQ(porep_sector_of_circuit_id("porep-8m"), 8 * mib);
  EXPECT_EQ(porep_sector_of_circuit_id("porep-512m"), 512 * mib);
  EXPECT_EQ(porep_sector_of_circuit_id("porep-32g"), 32 * gib);
  EXPECT_EQ(porep_sector_of_circuit_id("porep-64g"), 64 * gib);
  EXPECT_EQ(porep_sector_of_circuit_id("hash-chain-65536"), std::nullopt);
  const char* old = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
  const std::string saved = old ? old : "";
  ::setenv("FIL_PROOFS_PARAMETER_CACHE", "/data/fil-params", 1);
  EXPECT_EQ(default_parameter_cache(), "/data/fil-params");
  ::setenv("FIL_PROOFS_PARAMETER_CACHE", "", 1);
  EXPECT_EQ(default_parameter_cache(), "/var/tmp/filecoin-proof-parameters");
  ::unsetenv("FIL_PROOFS_PARAMETER_CACHE");
  EXPECT_EQ(default_parameter_cache(), "/var/tmp/filecoin-proof-parameters");
  if (old) ::setenv("FIL_PROOFS_PARAMETER_CACHE", saved.c_str(), 1);
}

TEST(parameter_manifest, malformed_manifests_are_refused) {
  EXPECT_THROW(parameter_manifest_t::from_json("[]"), std::invalid_argument);
  EXPECT_THROW(parameter_manifest_t::from_json("{"), std::invalid_argument);
  EXPECT_THROW(parameter_manifest_t::from_json(R"({"a.params": {"cid": "x", "sector_size": 1}})"),
               std::invalid_argument);
  EXPECT_THROW(parameter_manifest_t::from_json(R"({"a.params": {"cid": "x", "digest": 5, "sector_size": 1}})"),
               std::invalid_argument);
}

TEST(parameter_digest, matches_independent_blake2b_512) {
  // Expected values: python3 hashlib.blake2b (unkeyed, 64-byte digest) and b2sum.
  blake2b_512_t h;
  EXPECT_EQ(to_hex(h.finish()),
            "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b90"
            "3a685b1448b755d56f701afe9be2ce");
  h.update(as_bytes("ab"));
  h.update(as_bytes("c"));
  EXPECT_EQ(to_hex(h.finish()),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc95"
            "18d38aa8dbf1925ab92386edd4009923");
  EXPECT_EQ(parameter_digest(as_bytes("not the ceremony's file")), "6b197bfd9897c158b5bcf3f4f8b914bc");

  // A file over one 16 MiB read block: byte i = i * 131 + (i >> 13) (mod 256).
  temp_dir_t dir("digest");
  const std::size_t n = (std::size_t(20) << 20) + 7;
  std::string bytes(n, '\0');
  for (std::size_t i = 0; i < n; ++i) bytes[i] = char(std::uint8_t(i * 131 + (i >> 13)));
  write_file(dir.path / "f.bin", bytes);
  EXPECT_EQ(file_parameter_digest((dir.path / "f.bin").string()), "4a2a875433ce30fe6ae3848a5d5e24a2");
  EXPECT_EQ(parameter_digest(as_bytes(bytes)), "4a2a875433ce30fe6ae3848a5d5e24a2");
  EXPECT_THROW(file_parameter_digest((dir.path / "absent").string()), std::runtime_error);
}

TEST(parameter_digest, corrupt_official_file_is_named) {
  temp_dir_t dir("corrupt");
  const auto files = porep_parameter_files(2 * kib);
  write_file(dir.path / files.vk, "not the ceremony's file");
  write_file(dir.path / "porep-2k.params", "ours");
  const auto r = check_parameter_dir(dir.path.string());
  EXPECT_EQ(r.files.size(), parameter_manifest_t::official().entries().size());
  EXPECT_EQ(r.count(file_status_t::corrupt), 1u);
  EXPECT_EQ(r.count(file_status_t::ok), 0u);
  EXPECT_EQ(r.count(file_status_t::missing), r.files.size() - 1);
  EXPECT_EQ(r.others, 1u);
  EXPECT_FALSE(r.all_present_ok());
  for (const auto& f : r.files) {
    if (f.status != file_status_t::corrupt) continue;
    EXPECT_EQ(f.entry->name, files.vk);
    EXPECT_EQ(f.got, "6b197bfd9897c158b5bcf3f4f8b914bc");
    EXPECT_EQ(f.entry->digest, parameter_manifest_t::official().find(files.vk)->digest);
  }
  EXPECT_THROW(check_parameter_dir((dir.path / "nope").string()), std::invalid_argument);
  EXPECT_THROW(check_parameter_dir((dir.path / files.vk).string()), std::invalid_argument);
}

TEST(parameter_digest, matching_file_is_ok_and_marked_development_files_are_told_apart) {
  temp_dir_t dir("custom");
  const auto m = parameter_manifest_t::from_json(R"({
    "good.params": {"cid": "Qm1", "digest": "6b197bfd9897c158b5bcf3f4f8b914bc", "sector_size": 2048},
    "dev.params": {"cid": "Qm2", "digest": "00000000000000000000000000000000", "sector_size": 2048},
    "stale.params": {"cid": "Qm3", "digest": "00000000000000000000000000000000", "sector_size": 2048},
    "absent.vk": {"cid": "Qm4", "digest": "00000000000000000000000000000000", "sector_size": 2048}
  })");
  write_file(dir.path / "good.params", "not the ceremony's file");
  // A development file with its marker (what cuzk setup --official-names writes) ...
  write_file(dir.path / "dev.params", "not the ceremony's file");
  write_file(dir.path / "dev.params.development", "6b197bfd9897c158b5bcf3f4f8b914bc\ndevelopment\n");
  // ... and one changed after its marker was written: corrupt.
  write_file(dir.path / "stale.params", "changed since");
  write_file(dir.path / "stale.params.development", "6b197bfd9897c158b5bcf3f4f8b914bc\n");
  std::vector<std::string> seen;
  const auto r = check_parameter_dir(dir.path.string(), m, [&](const parameter_file_status_t& f) {
    seen.push_back(f.entry->name);
  });
  EXPECT_EQ(seen.size(), 3u);
  ASSERT_EQ(r.files.size(), 4u);  // name order: absent.vk, dev, good, stale
  EXPECT_EQ(r.files[0].status, file_status_t::missing);
  EXPECT_EQ(r.files[1].status, file_status_t::development);
  EXPECT_EQ(r.files[2].status, file_status_t::ok);
  EXPECT_EQ(r.files[2].bytes, 23u);
  EXPECT_EQ(r.files[3].status, file_status_t::corrupt);
  EXPECT_EQ(r.others, 2u);  // the markers
}

TEST(parameter_load, trusted_digest_skips_subgroup_checks_and_untrusted_files_get_them) {
  temp_dir_t dir("load");
  auto circuit = circuits::make_circuit("tiny");
  groth16::seeded_rng rng(test::seed("parameter_load"));
  const auto params = groth16::generate_parameters(*circuit, groth16::toxic_waste_t::random(rng));
  const auto good = dir.path / "good.params";
  groth16::write_parameters(good.string(), params);
  std::string seen_digest;
  bool trusted = false;
  auto by_digest = [&](const std::string& want) {
    return [&, want](std::span<const std::uint8_t> b) { return (seen_digest = parameter_digest(b)) == want; };
  };
  const auto digest = file_parameter_digest(good.string());
  EXPECT_EQ(groth16::read_parameters_if_trusted(good.string(), by_digest(digest), &trusted), params);
  EXPECT_TRUE(trusted);
  EXPECT_EQ(seen_digest, digest);  // the callback saw the whole file
  EXPECT_EQ(groth16::read_parameters_if_trusted(good.string(), by_digest("0"), &trusted), params);
  EXPECT_FALSE(trusted);

  // A b_g1 point on the curve but outside the subgroup: accepted only when trusted.
  auto bytes = read_all(good);
  const std::size_t vk_bytes = 96 * 3 + 192 * 3 + 4 + 96 * params.vk.ic.size();
  const std::size_t b_g1_at =
      vk_bytes + 4 + 96 * params.h.size() + 4 + 96 * params.l.size() + 4 + 96 * params.a.size() + 4;
  const auto outside = ec::serialize(ec::off_subgroup_point<ec::g1_curve>());
  std::copy(outside.begin(), outside.end(), bytes.begin() + std::ptrdiff_t(b_g1_at + 96));
  const auto bad = dir.path / "bad.params";
  write_file(bad, {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
  const auto bad_digest = file_parameter_digest(bad.string());
  EXPECT_EQ(groth16::read_parameters_if_trusted(bad.string(), by_digest(bad_digest), &trusted).b_g1[1],
            ec::off_subgroup_point<ec::g1_curve>());
  EXPECT_TRUE(trusted);
  try {
    groth16::read_parameters_if_trusted(bad.string(), by_digest(digest), &trusted);
    ADD_FAILURE() << "accepted an off-subgroup point without a matching digest";
  } catch (const groth16::format_error& e) {
    EXPECT_NE(std::string(e.what()).find("b_g1[1]: point not in the prime-order subgroup"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(groth16::read_parameters(bad.string()), groth16::format_error);
  // A callback that throws is no trust.
  EXPECT_THROW(groth16::read_parameters_if_trusted(
                   bad.string(), [](std::span<const std::uint8_t>) -> bool { throw std::runtime_error("x"); }),
               groth16::format_error);
}

TEST(parameter_load, porep_ids_resolve_to_official_names_when_present) {
  temp_dir_t dir("store");
  engine::memory_budget_t budget(uint64_t(1) << 30);
  engine::param_store_t store(budget, dir.path.string());
  const auto official = dir.path / porep_parameter_file(2 * kib);
  EXPECT_EQ(store.path_for("porep-2k"), (dir.path / "porep-2k.params").string());
  EXPECT_EQ(store.path_for("tiny"), (dir.path / "tiny.params").string());
  EXPECT_FALSE(store.available("porep-2k"));

  // Development parameters under the official name (any valid file will do
  // for the store): found by the PoRep id, loaded with every point checked
  // (its digest is not the manifest's).
  auto circuit = circuits::make_circuit("tiny");
  groth16::seeded_rng rng(test::seed("parameter_store"));
  const auto params = groth16::generate_parameters(*circuit, groth16::toxic_waste_t::random(rng));
  groth16::write_parameters(official.string(), params);
  EXPECT_EQ(store.path_for("porep-2k"), official.string());
  EXPECT_TRUE(store.available("porep-2k"));
  EXPECT_EQ(store.bytes_for("porep-2k"), fs::file_size(official));
  bool loaded = false;
  auto e = store.acquire("porep-2k", [] { return false; }, &loaded);
  ASSERT_TRUE(e);
  EXPECT_TRUE(loaded);
  EXPECT_EQ(*e->params, params);
  // Other sizes still use <id>.params.
  EXPECT_EQ(store.path_for("porep-8m"), (dir.path / "porep-8m.params").string());
}

namespace {

// A store whose backend "holds" H and B_g2 (read from the file by the load hook).
struct streamed_store_t {
  engine::param_store_t store;
  std::vector<groth16::g1_affine_t> device_h;
  std::vector<groth16::g2_affine_t> device_b_g2;
  uint64_t reserved_during_load = 0;
  int loads = 0;

  streamed_store_t(engine::memory_budget_t& budget, const fs::path& dir) : store(budget, dir.string()) {
    store.set_stream_hooks([](const std::string&, const groth16::parameter_layout_t&) { return 0b10001u; },
                           [this, &budget](engine::param_entry_t&, uint32_t unread, const groth16::parameter_file_t& f,
                                           ec::subgroup_check chk) {
                             EXPECT_EQ(unread, 0b10001u);
                             reserved_during_load = budget.reserved();
                             device_h = f.g1_query(0, chk);
                             device_b_g2 = f.g2_query(chk);
                             ++loads;
                           });
  }
};

}  // namespace

TEST(parameter_load, query_by_query_the_charge_is_the_host_queries_and_the_fallback_pays_its_reload) {
  temp_dir_t dir("stream");
  auto circuit = circuits::make_circuit("hash-chain", 8);
  groth16::seeded_rng rng(test::seed("parameter_stream"));
  const auto params = groth16::generate_parameters(*circuit, groth16::toxic_waste_t::random(rng));
  groth16::write_parameters((dir.path / "chain.params").string(), params);
  const uint64_t file = fs::file_size(dir.path / "chain.params");
  const uint64_t h = params.h.size() * sizeof(params.h[0]), b_g2 = params.b_g2.size() * sizeof(params.b_g2[0]);
  const uint64_t charge = params.bytes() - h - b_g2;
  const uint64_t during = charge + std::max(h, b_g2);  // one window of the largest device query
  auto never = [] { return false; };

  // A budget below the file: the whole read cannot fit it...
  engine::memory_budget_t small(file - 1);
  {
    engine::param_store_t whole(small, dir.path.string());
    EXPECT_THROW(whole.acquire("chain", never), engine::never_fits);
  }
  // ...the load query by query can.
  streamed_store_t s(small, dir.path);
  EXPECT_EQ(s.store.bytes_for("chain"), during);
  EXPECT_EQ(s.store.set_bytes_for("chain"), file);
  auto e = s.store.acquire("chain", never);
  ASSERT_TRUE(e);
  EXPECT_EQ(s.loads, 1);
  EXPECT_EQ(s.reserved_during_load, during);
  EXPECT_EQ(small.reserved(), charge);
  EXPECT_EQ(e->bytes, charge);
  EXPECT_TRUE(e->streamed);
  EXPECT_EQ(e->full_bytes, params.bytes());
  EXPECT_EQ(e->host_released, h + b_g2);
  EXPECT_TRUE(e->params->h.empty());
  EXPECT_TRUE(e->params->b_g2.empty());
  EXPECT_EQ(e->params->l, params.l);
  EXPECT_EQ(e->params->a, params.a);
  EXPECT_EQ(e->params->b_g1, params.b_g1);
  EXPECT_EQ(e->params->vk, params.vk);
  EXPECT_EQ(s.device_h, params.h);
  EXPECT_EQ(s.device_b_g2, params.b_g2);
  EXPECT_EQ(s.store.bytes_for("chain"), charge);
  EXPECT_EQ(s.store.set_bytes_for("chain"), params.bytes());
  // The CPU fallback's reload does not fit beside the charge: refused now, naming the budget.
  const auto why = test::error_of([&] { s.store.complete(*e); });
  EXPECT_NE(why.find("the CPU fallback needs " + std::to_string(params.bytes()) + " bytes"), std::string::npos) << why;
  EXPECT_NE(why.find("memory budget of " + std::to_string(file - 1) + " bytes"), std::string::npos) << why;
  EXPECT_EQ(small.reserved(), charge);

  // With room it reserves the whole set and reads it.
  engine::memory_budget_t big(4 * file);
  streamed_store_t roomy(big, dir.path);
  auto f = roomy.store.acquire("chain", never);
  ASSERT_TRUE(f);
  EXPECT_EQ(*roomy.store.complete(*f), params);
  EXPECT_EQ(big.reserved(), charge + params.bytes());
  f.reset();
  roomy.store.evict("chain");
  EXPECT_EQ(big.reserved(), 0u);
}

TEST(parameter_load, the_admission_charge_follows_a_file_replaced_before_its_load) {
  // bytes_for keeps the layouts it read (admission asks on every submit); a
  // file replaced under the same name is read again.
  temp_dir_t dir("stream_replaced");
  groth16::seeded_rng rng(test::seed("parameter_stream_replaced"));
  const auto small_params = groth16::generate_parameters(*circuits::make_circuit("hash-chain", 8),
                                                         groth16::toxic_waste_t::random(rng));
  const auto big_params = groth16::generate_parameters(*circuits::make_circuit("hash-chain", 32),
                                                       groth16::toxic_waste_t::random(rng));
  auto during = [](const groth16::parameters_t& p) {  // host queries plus one window of the largest device query
    const uint64_t h = p.h.size() * sizeof(p.h[0]), b_g2 = p.b_g2.size() * sizeof(p.b_g2[0]);
    return p.bytes() - h - b_g2 + std::max(h, b_g2);
  };
  ASSERT_NE(during(small_params), during(big_params));
  engine::memory_budget_t budget(uint64_t(1) << 30);
  streamed_store_t s(budget, dir.path);
  const auto path = (dir.path / "chain.params").string();
  groth16::write_parameters(path, small_params);
  EXPECT_EQ(s.store.bytes_for("chain"), during(small_params));
  EXPECT_EQ(s.store.bytes_for("chain"), during(small_params));
  groth16::write_parameters(path, big_params);
  EXPECT_EQ(s.store.bytes_for("chain"), during(big_params));
  fs::remove(path);
  EXPECT_EQ(s.store.bytes_for("chain"), 0u);  // no file: nothing to charge yet (acquire says it is missing)
  EXPECT_EQ(s.loads, 0);
}

TEST(parameter_load, query_by_query_bad_points_are_named_in_the_queries_never_read_here) {
  temp_dir_t dir("stream_bad");
  auto circuit = circuits::make_circuit("tiny");
  groth16::seeded_rng rng(test::seed("parameter_stream_bad"));
  const auto params = groth16::generate_parameters(*circuit, groth16::toxic_waste_t::random(rng));
  const auto vk_bytes = 96 * 3 + 192 * 3 + 4 + 96 * params.vk.ic.size();
  auto never = [] { return false; };
  engine::memory_budget_t budget(uint64_t(1) << 30);
  // Off the curve at h[1], any name: the load's read names it.
  groth16::write_parameters((dir.path / "tiny.params").string(), params);
  auto bytes = read_all(dir.path / "tiny.params");
  bytes[vk_bytes + 4 + 96 + 95] ^= 1;
  write_file(dir.path / "tiny.params", {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
  {
    streamed_store_t s(budget, dir.path);
    const auto why = test::error_of([&] { s.store.acquire("tiny", never); });
    EXPECT_NE(why.find("h[1]: point not on the curve"), std::string::npos) << why;
    EXPECT_EQ(budget.reserved(), 0u);
  }
  // Development parameters under an official name with a point outside the
  // subgroup at h[1]: read without the per-point checks beside the digest,
  // which differs from the manifest's, so every point is checked after.
  const auto official = dir.path / porep_parameter_file(2 * kib);
  groth16::write_parameters(official.string(), params);
  bytes = read_all(official);
  const auto outside = ec::serialize(ec::off_subgroup_point<ec::g1_curve>());
  std::copy(outside.begin(), outside.end(), bytes.begin() + std::ptrdiff_t(vk_bytes + 4 + 96));
  write_file(official, {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
  {
    streamed_store_t s(budget, dir.path);
    const auto why = test::error_of([&] { s.store.acquire("porep-2k", never); });
    EXPECT_EQ(s.loads, 1);  // the load ran (no per-point subgroup checks), then the digest's verdict
    EXPECT_NE(why.find("h[1]: point not in the prime-order subgroup"), std::string::npos) << why;
    EXPECT_EQ(budget.reserved(), 0u);
  }
  // The same file intact loads.
  groth16::write_parameters(official.string(), params);
  streamed_store_t s(budget, dir.path);
  auto e = s.store.acquire("porep-2k", never);
  ASSERT_TRUE(e);
  EXPECT_EQ(s.device_h, params.h);
}

TEST(parameter_files, official_porep_files_in_the_default_cache) {
  // Runs where the default cache holds Filecoin's PoRep files (fetched with
  // paramfetch / lotus fetch-params); hashes each one present (~36 s for the
  // 32 GiB one).
  const std::string dir = default_parameter_cache();
  const auto& m = parameter_manifest_t::official();
  std::vector<std::string> absent;
  int checked = 0;
  for (auto size : sizes) {
    const auto f = porep_parameter_files(size);
    for (const auto& name : {f.vk, f.params}) {
      const auto p = fs::path(dir) / name;
      std::error_code ec;
      if (!fs::is_regular_file(p, ec)) {
        absent.push_back(name);
        continue;
      }
      EXPECT_EQ(file_parameter_digest(p.string()), m.find(name)->digest) << p;
      ++checked;
    }
  }
  if (checked == 0) {
    std::string list;
    for (const auto& n : absent) list += "\n  " + n;
    GTEST_SKIP() << "no official PoRep parameter files in " << dir << "; looked for:" << list;
  }
}
