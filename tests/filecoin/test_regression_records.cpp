// Public inputs of every seal regression record of rust-fil-proofs
// (tests/fixtures/filecoin/seal_regression_records-v16.json and -v18.json,
// copied from filecoin-project/rust-fil-proofs), derived from the record alone
// as verify_seal / get_seal_inputs derive them (filecoin-proofs
// src/api/seal.rs): replica_id, then every partition's inputs. Checked:
//   - record counts per (file, size, version, feature), so nothing is skipped;
//   - per partition 3 + 18·challenges inputs (39 for test sizes, 327 for
//     32/64 GiB, for NonInteractivePoRep too: 13 / 126 partitions of 2 / 18);
//   - ordering: replica_id, comm_d, comm_r, then per challenge c, its 6 DRG
//     and 8 expander parents, and c three times; the challenge drawn by the
//     version's rule (interactive, synthetic, non-interactive) and in range;
//   - FILECOIN_POREP.md §6's worked example, exactly;
//   - when the published verifying keys are on this machine, every plain
//     (non-aggregated) proof verifies with these inputs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "filecoin/seal_public_inputs.hpp"
#include "groth16/param_io.hpp"
#include "groth16/proof_t.hpp"
#include "groth16/verifier.hpp"
#include "porep/challenges.hpp"
#include "porep/domain.hpp"
#include "porep/labeling.hpp"
#include "porep/stacked_graph_t.hpp"
#include "porep/synthetic_challenges.hpp"
#include "test_seed.hpp"

namespace cuzk::filecoin {
namespace {

using ff::fr_t;
using porep::api_version_t;
using porep::bytes32_t;
using porep::porep_feature_t;
constexpr std::uint64_t kib = 1024, mib = kib << 10, gib = mib << 10;

struct record_t {
  std::string origin;  // file:line
  std::string file;
  porep_config_t config;
  bytes32_t comm_r_bytes{}, comm_d_bytes{}, prover_id{}, ticket{}, seed{};
  std::uint64_t sector_id = 0;
  std::vector<std::uint8_t> proof;
};

bytes32_t bytes32(const nlohmann::json& j) {
  const auto v = j.get<std::vector<std::uint8_t>>();
  if (v.size() != 32) throw std::runtime_error("expected 32 bytes");
  bytes32_t b;
  std::copy(v.begin(), v.end(), b.begin());
  return b;
}

const std::vector<record_t>& records() {
  static const std::vector<record_t> all = [] {
    std::vector<record_t> out;
    for (const char* file : {"seal_regression_records-v16.json", "seal_regression_records-v18.json"}) {
      const std::string path = test::source_path(std::string("tests/fixtures/filecoin/") + file);
      std::ifstream in(path);
      EXPECT_TRUE(in) << "cannot open " << path;
      std::string line;
      for (std::size_t lineno = 1; std::getline(in, line); ++lineno) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const auto j = nlohmann::json::parse(line);
        const auto& cfg = j.at("porep_config");
        record_t r;
        r.file = file;
        r.origin = std::string(file) + ":" + std::to_string(lineno);
        r.config.sector_bytes = cfg.at("sector_size").get<std::uint64_t>();
        r.config.partitions = cfg.at("partitions").get<unsigned>();
        r.config.porep_id = bytes32(cfg.at("porep_id"));
        r.config.api_version = porep::parse_api_version(cfg.at("api_version").get<std::string>());
        const auto feats = cfg.at("api_features").get<std::vector<std::string>>();
        EXPECT_LE(feats.size(), 1u) << r.origin;
        r.config.feature = porep::parse_porep_feature(feats.empty() ? "" : feats[0]);
        r.comm_r_bytes = bytes32(j.at("comm_r"));
        r.comm_d_bytes = bytes32(j.at("comm_d"));
        r.prover_id = bytes32(j.at("prover_id"));
        r.ticket = bytes32(j.at("ticket"));
        r.seed = bytes32(j.at("seed"));
        r.sector_id = j.at("sector_id").get<std::uint64_t>();
        r.proof = j.at("proof").get<std::vector<std::uint8_t>>();
        out.push_back(std::move(r));
      }
    }
    return out;
  }();
  return all;
}

struct derived_t {
  fr_t replica_id, comm_r, comm_d;
  std::vector<std::vector<fr_t>> inputs;  // per partition
};

derived_t derive(const record_t& r) {
  derived_t d;
  d.comm_r = commitment_from_bytes(r.comm_r_bytes, "comm_r");
  d.comm_d = commitment_from_bytes(r.comm_d_bytes, "comm_d");
  d.replica_id = seal_replica_id(r.config, r.prover_id, r.sector_id, r.ticket, d.comm_d);
  d.inputs = seal_public_inputs_all(r.config, d.comm_r, d.comm_d, d.replica_id, r.seed);
  return d;
}

std::string hex(std::span<const std::uint8_t> b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (auto x : b) s += digits[x >> 4], s += digits[x & 15];
  return s;
}

std::uint64_t as_u64(const fr_t& x) {
  const auto c = x.to_canonical();
  EXPECT_TRUE(c[1] == 0 && c[2] == 0 && c[3] == 0);
  return c[0];
}

std::string version_name(const porep_config_t& c) {
  std::string s = "V" + std::string(porep::to_string(c.api_version));
  if (c.feature != porep_feature_t::none) s += "+" + std::string(porep::to_string(c.feature));
  return s;
}

TEST(RegressionRecords, CountsPerFileSizeAndVersion) {
  using key_t = std::tuple<std::string, std::uint64_t, std::string>;
  std::map<key_t, int> got;
  for (const auto& r : records()) ++got[{r.file, r.config.sector_bytes, version_name(r.config)}];
  const std::string v16 = "seal_regression_records-v16.json", v18 = "seal_regression_records-v18.json";
  const std::map<key_t, int> want = {
      {{v16, 2 * kib, "V1.0"}, 31},          {{v16, 2 * kib, "V1.1"}, 31},
      {{v16, 2 * kib, "V1.2"}, 31},          {{v16, 2 * kib, "V1.2+SyntheticPoRep"}, 31},
      {{v16, 8 * mib, "V1.0"}, 22},          {{v16, 8 * mib, "V1.1"}, 22},
      {{v16, 8 * mib, "V1.2"}, 22},          {{v16, 8 * mib, "V1.2+SyntheticPoRep"}, 22},
      {{v16, 512 * mib, "V1.0"}, 114},       {{v16, 512 * mib, "V1.1"}, 116},
      {{v16, 32 * gib, "V1.1"}, 4},          {{v16, 64 * gib, "V1.1"}, 2},
      {{v18, 8 * mib, "V1.0"}, 12},          {{v18, 8 * mib, "V1.1"}, 12},
      {{v18, 8 * mib, "V1.2"}, 12},          {{v18, 8 * mib, "V1.2+SyntheticPoRep"}, 12},
      {{v18, 8 * mib, "V1.2+NonInteractivePoRep"}, 12},
      {{v18, 512 * mib, "V1.0"}, 10},        {{v18, 512 * mib, "V1.1"}, 10},
      {{v18, 512 * mib, "V1.2"}, 10},        {{v18, 512 * mib, "V1.2+SyntheticPoRep"}, 10},
      {{v18, 512 * mib, "V1.2+NonInteractivePoRep"}, 10},
      {{v18, 32 * gib, "V1.2+SyntheticPoRep"}, 1},
      {{v18, 32 * gib, "V1.2+NonInteractivePoRep"}, 2}};
  EXPECT_EQ(got, want);
}

// The challenge of partition k, slot i, by the version's rule, computed
// without the dispatch in porep::partition_challenges.
std::uint64_t expected_challenge(const record_t& r, const derived_t& d, unsigned k, unsigned i) {
  const auto n = r.config.challenges_per_partition();
  const auto nodes = r.config.nodes();
  const std::uint32_t j = n * k + i;
  switch (r.config.feature) {
    case porep_feature_t::none: return porep::derive_challenge(d.replica_id, r.seed, j, nodes);
    case porep_feature_t::synthetic: {
      porep::synth_challenge_generator_t g(nodes, d.replica_id, d.comm_r);
      return g.synth_challenge(g.partition_synth_indexes(n * (k + 1), r.seed, 0)[j]);
    }
    case porep_feature_t::non_interactive: return porep::derive_ni_challenge(d.replica_id, d.comm_r, j, nodes);
  }
  return 0;
}

TEST(RegressionRecords, EveryRecordsPublicInputsDerived) {
  std::map<std::string, std::size_t> partitions_seen;
  for (const auto& r : records()) {
    SCOPED_TRACE(r.origin + " " + version_name(r.config));
    const auto& c = r.config;
    // The record's partition count is upstream's for the size and feature.
    const auto standard = porep_config_t::standard(c.sector_bytes, c.api_version, c.feature, c.porep_id);
    ASSERT_EQ(c.partitions, standard.partitions);
    const bool ni = c.feature == porep_feature_t::non_interactive;
    const bool prod = c.sector_bytes >= 32 * gib;
    EXPECT_EQ(c.partitions, ni ? (prod ? 126u : 13u) : (prod ? 10u : 1u));
    const unsigned n = c.challenges_per_partition();
    EXPECT_EQ(n, prod ? 18u : 2u);
    // Plain proofs are one 192-byte Groth16 proof per partition; NI records
    // hold a SnarkPack aggregate instead.
    if (!ni) EXPECT_EQ(r.proof.size(), groth16::proof_size * c.partitions);
    else EXPECT_NE(r.proof.size(), groth16::proof_size * c.partitions);

    const auto d = derive(r);
    ASSERT_EQ(d.inputs.size(), c.partitions);
    const porep::stacked_graph_t g(c.nodes(), c.porep_id, c.api_version);
    // Full checks on at most 3 partitions per record (first, second, last);
    // counts and header on all of them.
    for (unsigned k = 0; k < c.partitions; ++k) {
      const auto& in = d.inputs[k];
      ASSERT_EQ(in.size(), prod ? 327u : 39u) << "partition " << k;
      ASSERT_EQ(in.size(), 3 + 18 * n);
      EXPECT_EQ(in[0], d.replica_id);
      EXPECT_EQ(in[1], d.comm_d);
      EXPECT_EQ(in[2], d.comm_r);
      if (k > 1 && k + 1 < c.partitions) continue;
      for (unsigned q = 0; q < n; ++q) {
        const std::size_t b = 3 + 18 * q;
        const std::uint64_t ch = as_u64(in[b]);
        EXPECT_EQ(ch, expected_challenge(r, d, k, q)) << "k " << k << " q " << q;
        EXPECT_GE(ch, 1u);
        EXPECT_LT(ch, c.nodes());
        const auto drg = g.drg_parents(ch);
        const auto exp = g.exp_parents(ch);
        for (unsigned i = 0; i < 6; ++i) {
          EXPECT_EQ(as_u64(in[b + 1 + i]), drg[i]);
          EXPECT_LT(drg[i], ch);  // DRG parents precede the node
        }
        // The predecessor is first since V1_1, last in V1_0 (drgraph.rs).
        EXPECT_EQ(drg[c.api_version == api_version_t::v1_0 ? 5 : 0], ch - 1);
        for (unsigned i = 0; i < 8; ++i) {
          EXPECT_EQ(as_u64(in[b + 7 + i]), exp[i]);
          EXPECT_LT(exp[i], c.nodes());
        }
        for (unsigned t = 15; t < 18; ++t) EXPECT_EQ(in[b + t], in[b]);
      }
    }
    partitions_seen[version_name(c)] += c.partitions;
  }
  // 13 partitions per small NI record, 126 per 32 GiB NI record.
  EXPECT_EQ(partitions_seen["V1.2+NonInteractivePoRep"], 22u * 13 + 2u * 126);
}

TEST(RegressionRecords, V1_2WithoutFeaturesDerivesLikeV1_1) {
  // api_version only reaches the graph (drgraph.rs, graph.rs match V1_1 | V1_2
  // together) and challenges never see it: the same record read as V1_1 gives
  // the same inputs.
  int compared = 0;
  for (const auto& r : records()) {
    if (r.config.api_version != api_version_t::v1_2 || r.config.feature != porep_feature_t::none) continue;
    auto as_v11 = r;
    as_v11.config.api_version = api_version_t::v1_1;
    EXPECT_EQ(derive(r).inputs, derive(as_v11).inputs) << r.origin;
    if (++compared == 8) break;
  }
  EXPECT_EQ(compared, 8);
}

TEST(RegressionRecords, WorkedExampleOfFilecoinPorepMd) {
  // FILECOIN_POREP.md §6: the first 32 GiB V1_1 record of the v16 file (line 443).
  const record_t* rec = nullptr;
  for (const auto& r : records())
    if (r.file == "seal_regression_records-v16.json" && r.config.sector_bytes == 32 * gib) {
      rec = &r;
      break;
    }
  ASSERT_NE(rec, nullptr);
  EXPECT_EQ(rec->origin, "seal_regression_records-v16.json:443");
  EXPECT_EQ(rec->config.api_version, api_version_t::v1_1);
  EXPECT_EQ(rec->config.porep_id, porep_config_t::of(seal_proof_by_id(8)).porep_id);
  const auto d = derive(*rec);
  EXPECT_EQ(hex(porep::to_le_bytes(d.replica_id)), "3ca7c8110b2ccdcc89d8d7dabeed81b7a5b87a4f73ed43d0b2eb2220de963129");
  const auto& p0 = d.inputs[0];
  EXPECT_EQ(as_u64(p0[3 + 0 * 18]), 980979701u);
  EXPECT_EQ(as_u64(p0[3 + 1 * 18]), 721418575u);
  EXPECT_EQ(as_u64(p0[3 + 2 * 18]), 824730872u);
  EXPECT_EQ(as_u64(d.inputs[9][3]), 499831192u);
  const std::uint64_t drg[6] = {980979700, 980978077, 980952352, 980979699, 312222476, 979455093};
  const std::uint64_t exp[8] = {749539807, 182735280, 276707672, 247452191, 626879568, 527945222, 307523740, 346272975};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(as_u64(p0[4 + i]), drg[i]) << "DRG parent " << i;
  for (int i = 0; i < 8; ++i) EXPECT_EQ(as_u64(p0[10 + i]), exp[i]) << "expander parent " << i;
}

// The published PoRep verifying keys, by sector size (parameters.json; the
// circuit, hence the key, is the same for V1_0, V1_1, V1_2 and synthetic).
const std::map<std::uint64_t, std::string>& porep_vk_names() {
  static const std::map<std::uint64_t, std::string> m = {
      {2 * kib, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk"},
      {8 * mib, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.vk"},
      {512 * mib, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                  "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.vk"},
      {32 * gib, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
                 "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.vk"},
      {64 * gib, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
                 "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.vk"}};
  return m;
}

TEST(RegressionRecords, VkNamesAreInTheParameterManifest) {
  // The manifest the build embeds (src/filecoin/parameters.json, from filecoin-proofs).
  const std::string path = test::source_path("src/filecoin/parameters.json");
  std::ifstream in(path);
  if (!in) GTEST_SKIP() << "no " << path;
  const auto manifest = nlohmann::json::parse(in);
  for (const auto& [bytes, name] : porep_vk_names()) {
    ASSERT_TRUE(manifest.contains(name)) << name;
    EXPECT_EQ(manifest.at(name).at("sector_size").get<std::uint64_t>(), bytes) << name;
  }
}

TEST(RegressionRecords, PlainProofsVerifyWithDerivedInputs) {
  std::string dir = "/var/tmp/filecoin-proof-parameters";
  if (const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE"); env && *env) dir = env;
  std::map<std::uint64_t, groth16::prepared_vk_t> keys;
  std::vector<std::string> missing;
  for (const auto& [bytes, name] : porep_vk_names()) {
    const auto path = dir + "/" + name;
    if (!std::filesystem::exists(path)) {
      missing.push_back(name);
      continue;
    }
    keys.emplace(bytes, groth16::prepared_vk_t(groth16::read_verifying_key(path)));
  }
  std::size_t verified = 0;
  for (const auto& r : records()) {
    if (r.config.feature == porep_feature_t::non_interactive) continue;  // SnarkPack aggregates
    const auto key = keys.find(r.config.sector_bytes);
    if (key == keys.end()) continue;
    const auto d = derive(r);
    for (unsigned k = 0; k < r.config.partitions; ++k) {
      groth16::proof_t proof;
      const std::span<const std::uint8_t> bytes(r.proof.data() + k * groth16::proof_size, groth16::proof_size);
      const auto decoded = groth16::decode_proof(bytes, proof);
      ASSERT_TRUE(decoded.ok()) << r.origin << ": " << decoded.message();
      EXPECT_TRUE(key->second.verify(proof, d.inputs[k])) << r.origin << " partition " << k;
      ++verified;
    }
  }
  std::cout << "[info] verified " << verified << " partition proofs against the published keys\n";
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += "\n  " + dir + "/" + m;
    GTEST_SKIP() << missing.size() << " PoRep verifying key(s) missing (set FIL_PROOFS_PARAMETER_CACHE):" << list;
  }
}

}  // namespace
}  // namespace cuzk::filecoin
