// C1 outputs (SealCommitPhase1Output JSON): writer -> reader round trips for
// every size and version, the JSON shape against the Rust struct definitions
// (FILECOIN_FORMATS.md §2, rust-fil-proofs stacked/vanilla/*.rs, merkle/proof.rs),
// and corruptions that must be refused naming the JSON path.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "filecoin/c1_bincode.hpp"
#include "filecoin/c1_json.hpp"
#include "filecoin/porep_input.hpp"
#include "filecoin/seal_public_inputs.hpp"
#include "porep/vanilla_generator.hpp"
#include "porep/vanilla_json.hpp"
#include "test_seed.hpp"

namespace cuzk::filecoin {
namespace {

using ojson = nlohmann::ordered_json;
constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;

std::span<const std::uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

porep::bytes32_t ticket_of(std::uint8_t x) {
  porep::bytes32_t t{};
  t.fill(x);
  return t;
}

c1_output_t make_c1(std::uint64_t sector_bytes, seal_version_t v, std::uint64_t seed) {
  const auto& rp = seal_proof_for(sector_bytes, v);
  auto vanilla = porep::generate_vanilla(rp.sector_params(), seed);
  // Replicated sectors carry the ticket their replica_id was derived with; sparse ones take any.
  if (vanilla.replica_id_inputs) return make_c1_output(rp, std::move(vanilla));
  return make_c1_output(rp, std::move(vanilla), ticket_of(0x5a));
}

// The 32/64 GiB sparse sectors take seconds each to generate: made once.
const c1_output_t& big_c1(std::uint64_t sector_bytes) {
  static const c1_output_t c32 = make_c1(32 * gib, seal_version_t::v1_1, 1);
  static const c1_output_t c64 = make_c1(64 * gib, seal_version_t::v1_1, 1);
  return sector_bytes == 32 * gib ? c32 : c64;
}

// What a C1 does not carry: our model's name and the replica_id inputs
// (prover_id and sector_id come with the request, not in the C1).
nlohmann::json model_json(porep::vanilla_proof_t v) {
  v.model = "replicated";
  v.replica_id_inputs.reset();
  return porep::vanilla_to_json(v);
}

const std::string& c1_2k_text() {
  static const std::string t = write_c1_json(make_c1(2 * kib, seal_version_t::v1_1, 7));
  return t;
}

// Reads `text` and expects a refusal naming `element`.
void expect_refused_at(const std::string& text, const std::string& element) {
  try {
    read_c1_json(bytes(text));
    ADD_FAILURE() << "accepted; expected a refusal at " << element;
  } catch (const porep::vanilla_format_error& e) {
    EXPECT_EQ(e.element(), element) << e.what();
  }
}

TEST(C1Json, RoundTripEverySizeAndVersion) {
  for (std::uint64_t size : {2 * kib, 8 * mib, 512 * mib, 32 * gib, 64 * gib})
    for (auto v : {seal_version_t::v1, seal_version_t::v1_1}) {
      if (size >= 32 * gib && v == seal_version_t::v1) continue;  // same code paths as V1_1; saves a minute of CI
      const auto c1 = size >= 32 * gib ? big_c1(size) : make_c1(size, v, 3);
      const std::string text = write_c1_json(c1);
      const auto back = read_c1_json(bytes(text));
      SCOPED_TRACE(c1.proof.name());
      EXPECT_EQ(back.proof.id, c1.proof.id);
      EXPECT_EQ(back.ticket, c1.ticket);
      EXPECT_TRUE(model_json(back.vanilla) == model_json(c1.vanilla));
      EXPECT_EQ(write_c1_json(back), text);
    }
}

TEST(C1Json, SyntheticRoundTripOnReplicatedSectors) {
  // The sparse model cannot draw synthetic challenges (they hang on comm_r,
  // which its trees are built after), so synthetic C1s come from sealed sectors.
  for (std::uint64_t size : {2 * kib, 8 * mib}) {
    const auto& rp = seal_proof_for(size, seal_version_t::v1_1_synthetic);
    auto v = porep::generate_replicated(rp.sector_params(), 4);
    const auto c1 = make_c1_output(rp, std::move(v));
    const std::string text = write_c1_json(c1);
    const auto back = read_c1_json(bytes(text));
    EXPECT_EQ(back.proof.name(), rp.name());
    EXPECT_EQ(write_c1_json(back), text);
  }
}

TEST(C1Json, ShapeMatchesTheRustStructs) {
  const ojson j = ojson::parse(c1_2k_text());
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id",
                                            "seed", "ticket"}));
  EXPECT_EQ(j["registered_proof"], "StackedDrg2KiBV1_1");
  ASSERT_TRUE(j["vanilla_proofs"].contains("StackedDrg2KiBV1"));  // the V1 variant under a V1_1 proof
  for (const char* k : {"comm_r", "comm_d", "replica_id", "seed", "ticket"}) {
    ASSERT_TRUE(j[k].is_array() && j[k].size() == 32) << k;
    for (const auto& b : j[k]) EXPECT_TRUE(b.is_number_unsigned() && b.get<unsigned>() <= 255) << k;
  }
  const ojson& parts = j["vanilla_proofs"]["StackedDrg2KiBV1"];
  ASSERT_EQ(parts.size(), 1u);
  ASSERT_EQ(parts[0].size(), 2u);
  const ojson& ch = parts[0][0];
  keys.clear();
  for (const auto& [k, v] : ch.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs",
                                            "labeling_proofs", "encoding_proof"}));
  // Tree D: Single {root, leaf, path: {path: [{hashes: [1], index}]}}, 6 levels at 2 KiB.
  const ojson& d = ch["comm_d_proofs"]["data"]["Single"];
  keys.clear();
  for (const auto& [k, v] : d.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"root", "leaf", "path"}));
  ASSERT_EQ(d["path"]["path"].size(), 6u);
  EXPECT_EQ(d["path"]["path"][0]["hashes"].size(), 1u);
  EXPECT_TRUE(d["path"]["path"][0]["index"].is_number_unsigned());
  EXPECT_EQ(d["path"]["path"][0].size(), 2u);  // _arity is #[serde(skip)]
  // Columns: {column: {index, rows, _h: null}, inclusion_proof}; 2 layers, 8-ary paths of 2 levels.
  const ojson& cx = ch["replica_column_proofs"]["c_x"];
  keys.clear();
  for (const auto& [k, v] : cx["column"].items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"index", "rows", "_h"}));
  EXPECT_TRUE(cx["column"]["_h"].is_null());
  EXPECT_EQ(cx["column"]["rows"].size(), 2u);
  EXPECT_EQ(cx["inclusion_proof"]["data"]["Single"]["path"]["path"][1]["hashes"].size(), 7u);
  EXPECT_EQ(ch["replica_column_proofs"]["drg_parents"].size(), 6u);
  EXPECT_EQ(ch["replica_column_proofs"]["exp_parents"].size(), 8u);
  // Labeling proofs: {parents: 37, layer_index, node}, layers 1..2; encoding proof likewise, layer 2.
  ASSERT_EQ(ch["labeling_proofs"].size(), 2u);
  keys.clear();
  for (const auto& [k, v] : ch["labeling_proofs"][0].items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"parents", "layer_index", "node"}));
  EXPECT_EQ(ch["labeling_proofs"][1]["parents"].size(), 37u);
  EXPECT_EQ(ch["labeling_proofs"][1]["layer_index"], 2);
  EXPECT_EQ(ch["encoding_proof"]["layer_index"], 2);
  EXPECT_EQ(ch["encoding_proof"]["node"], cx["column"]["index"]);
  // Layer 1 repeats the 6 DRG labels: slot 6 is slot 0; layer 2 repeats 14: slot 14 is slot 0.
  EXPECT_EQ(ch["labeling_proofs"][0]["parents"][6], ch["labeling_proofs"][0]["parents"][0]);
  EXPECT_EQ(ch["labeling_proofs"][1]["parents"][14], ch["labeling_proofs"][1]["parents"][0]);
  EXPECT_EQ(ch["labeling_proofs"][1]["parents"][0], ch["replica_column_proofs"]["drg_parents"][0]["column"]["rows"][1]);
  EXPECT_EQ(ch["labeling_proofs"][1]["parents"][6], ch["replica_column_proofs"]["exp_parents"][0]["column"]["rows"][0]);
}

TEST(C1Json, CompoundTreesUseSubAndTop) {
  const ojson j32 = ojson::parse(write_c1_json(big_c1(32 * gib)));
  const ojson& r32 = j32["vanilla_proofs"]["StackedDrg32GiBV1"][0][0]["comm_r_last_proof"]["data"];
  ASSERT_TRUE(r32.contains("Sub"));
  std::vector<std::string> keys;
  for (const auto& [k, v] : r32["Sub"].items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"base_proof", "sub_proof", "root", "leaf"}));
  EXPECT_EQ(r32["Sub"]["base_proof"]["path"].size(), 9u);
  EXPECT_EQ(r32["Sub"]["sub_proof"]["path"].size(), 1u);
  EXPECT_EQ(j32["vanilla_proofs"]["StackedDrg32GiBV1"].size(), 10u);
  EXPECT_EQ(j32["vanilla_proofs"]["StackedDrg32GiBV1"][9].size(), 18u);
  EXPECT_EQ(j32["vanilla_proofs"]["StackedDrg32GiBV1"][0][0]["labeling_proofs"].size(), 11u);
  const ojson j64 = ojson::parse(write_c1_json(big_c1(64 * gib)));
  const ojson& r64 = j64["vanilla_proofs"]["StackedDrg64GiBV1"][0][0]["comm_r_last_proof"]["data"];
  ASSERT_TRUE(r64.contains("Top"));
  keys.clear();
  for (const auto& [k, v] : r64["Top"].items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"base_proof", "sub_proof", "top_proof", "root", "leaf"}));
  EXPECT_EQ(r64["Top"]["top_proof"]["path"][0]["hashes"].size(), 1u);
  EXPECT_EQ(j64["vanilla_proofs"]["StackedDrg64GiBV1"][0][0]["comm_d_proofs"]["data"]["Single"]["path"]["path"].size(),
            31u);
}

// A 32 GiB C1 (10 partitions x 18 challenges, ~39 MB) read and checked, and
// each partition's public inputs derived from its commitments alone
// (seal_public_inputs, rust-fil-proofs' rules) agree with what its openings say.
TEST(C1Json, ThirtyTwoGiBParsedCheckedAndPublicInputsDerived) {
  const auto& c1 = big_c1(32 * gib);
  const std::string text = write_c1_json(c1);
  const auto back = read_c1_json(bytes(text));
  ASSERT_EQ(back.vanilla.partitions.size(), 10u);
  const auto config = porep_config_t::of(back.proof);
  for (unsigned k = 0; k < 10; ++k) {
    const auto in = seal_public_inputs(config, back.vanilla.comm_r, back.vanilla.comm_d, back.vanilla.replica_id,
                                       back.vanilla.seed, k);
    ASSERT_EQ(in.size(), 3u + 18 * 18);
    EXPECT_EQ(in[0], back.vanilla.replica_id);
    EXPECT_EQ(in[1], back.vanilla.comm_d);
    EXPECT_EQ(in[2], back.vanilla.comm_r);
    const auto& chs = back.vanilla.partitions[k].challenges;
    ASSERT_EQ(chs.size(), 18u);
    for (std::size_t q = 0; q < chs.size(); ++q) {
      const auto at = [&](std::size_t j) { return in[3 + 18 * q + j]; };
      const auto node = ff::fr_t::from_u64(chs[q].node);
      EXPECT_EQ(at(0), node);
      for (std::size_t m = 0; m < 6; ++m) EXPECT_EQ(at(1 + m), ff::fr_t::from_u64(chs[q].drg_parents[m].node));
      for (std::size_t m = 0; m < 8; ++m) EXPECT_EQ(at(7 + m), ff::fr_t::from_u64(chs[q].exp_parents[m].node));
      EXPECT_EQ(at(15), node);
      EXPECT_EQ(at(16), node);
      EXPECT_EQ(at(17), node);
    }
  }
}

// supra_seal's bincode form: the same sector reads to the same model as its
// JSON, through the same checks (so the same element paths), and structural
// damage names the byte.
TEST(C1Bincode, RoundTripAndSameModelAsTheJson) {
  for (std::uint64_t size : {2 * kib, 32 * gib}) {
    const auto& c1 = size == 2 * kib ? read_c1_json(bytes(c1_2k_text())) : big_c1(size);
    const std::string bin = write_c1_bincode(c1);
    const auto back = read_c1_bincode(bytes(bin), c1.proof);
    EXPECT_TRUE(model_json(back.vanilla) == model_json(c1.vanilla)) << c1.proof.name();
    EXPECT_EQ(back.ticket, c1.ticket);
    EXPECT_EQ(write_c1_bincode(back), bin);
    // Through the request path: bincode needs the request's registered proof.
    const auto in = read_porep_input(bytes(bin), c1.proof.id);
    EXPECT_EQ(in.format, porep_input_format_t::c1_bincode);
    EXPECT_THROW(read_porep_input(bytes(bin)), porep::vanilla_format_error);
  }
  // 2 KiB: 1 partition of 2 challenges; the first u64 is the partition count.
  const std::string bin = write_c1_bincode(read_c1_json(bytes(c1_2k_text())));
  EXPECT_EQ(bin.substr(0, 8), std::string("\x01\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(bin.substr(8, 8), std::string("\x02\0\0\0\0\0\0\0", 8));
}

TEST(C1Bincode, DamageIsNamed) {
  auto c1 = read_c1_json(bytes(c1_2k_text()));
  const std::string bin = write_c1_bincode(c1);
  const auto seed = test::seed("C1Bincode.DamageIsNamed");
  std::mt19937_64 rng(seed);
  for (int n = 0; n < 20; ++n) {
    const std::size_t cut = rng() % bin.size();
    try {
      read_c1_bincode(bytes(bin.substr(0, cut)), c1.proof);
      ADD_FAILURE() << "a bincode C1 cut at byte " << cut << " was accepted";
    } catch (const porep::vanilla_format_error& e) {
      EXPECT_FALSE(e.element().empty());
    }
  }
  try {
    read_c1_bincode(bytes(bin.substr(0, 100)), c1.proof);
    ADD_FAILURE();
  } catch (const porep::vanilla_format_error& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
  // Another size's registered proof: its partition count or shapes do not fit.
  EXPECT_THROW(read_c1_bincode(bytes(bin), seal_proof_by_name("StackedDrg8MiBV1_1")), porep::vanilla_format_error);
  EXPECT_THROW(read_c1_bincode(bytes(bin + "x"), c1.proof), porep::vanilla_format_error);
  // A label of challenge 0's own column: the same path as in the JSON.
  c1.vanilla.partitions[0].challenges[0].column.rows[1] += ff::fr_t::from_u64(1);
  try {
    read_c1_bincode(bytes(write_c1_bincode(c1)), c1.proof);
    ADD_FAILURE();
  } catch (const porep::vanilla_format_error& e) {
    EXPECT_EQ(e.element(), "vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.c_x.column.rows[1]") << e.what();
  }
}

// Edits one value of the 2 KiB C1 and dumps it compactly.
template <class F>
std::string edited(F&& edit) {
  ojson j = ojson::parse(c1_2k_text());
  edit(j);
  return j.dump();
}

ojson& challenge(ojson& j, int i) { return j["vanilla_proofs"]["StackedDrg2KiBV1"][0][i]; }

void flip(ojson& domain) { domain[3] = (domain[3].get<int>() ^ 0x10); }

TEST(C1Json, CorruptionsNameTheJsonPath) {
  const std::string c1 = "vanilla_proofs.StackedDrg2KiBV1[0][1]";
  expect_refused_at(edited([](ojson& j) { flip(challenge(j, 1)["replica_column_proofs"]["drg_parents"][2]["column"]["rows"][1]); }),
                    c1 + ".replica_column_proofs.drg_parents[2].column.rows[1]");
  expect_refused_at(edited([](ojson& j) { flip(challenge(j, 1)["labeling_proofs"][1]["parents"][16]); }),
                    c1 + ".labeling_proofs[1].parents[16]");
  expect_refused_at(edited([](ojson& j) { flip(challenge(j, 1)["replica_column_proofs"]["c_x"]["column"]["rows"][0]); }),
                    c1 + ".replica_column_proofs.c_x.column.rows[0]");
  expect_refused_at(edited([](ojson& j) {
                      flip(challenge(j, 1)["comm_r_last_proof"]["data"]["Single"]["path"]["path"][1]["hashes"][4]);
                    }),
                    c1 + ".comm_r_last_proof.data.Single");
  expect_refused_at(edited([](ojson& j) { flip(challenge(j, 1)["comm_d_proofs"]["data"]["Single"]["path"]["path"][3]["hashes"][0]); }),
                    c1 + ".comm_d_proofs.data.Single.path");
  expect_refused_at(edited([](ojson& j) { flip(challenge(j, 1)["comm_d_proofs"]["data"]["Single"]["root"]); }),
                    c1 + ".comm_d_proofs.data.Single.root");
  expect_refused_at(edited([](ojson& j) {
                      flip(challenge(j, 1)["replica_column_proofs"]["exp_parents"][5]["inclusion_proof"]["data"]["Single"]["leaf"]);
                    }),
                    c1 + ".replica_column_proofs.exp_parents[5].inclusion_proof.data.Single.leaf");
  expect_refused_at(edited([](ojson& j) {
                      auto& e = challenge(j, 1)["comm_r_last_proof"]["data"]["Single"]["path"]["path"][0]["index"];
                      e = (e.get<int>() + 1) % 8;
                    }),
                    c1 + ".comm_r_last_proof.data.Single.path.path[0].index");
  expect_refused_at(edited([](ojson& j) { flip(j["comm_r"]); }), "comm_r");
  expect_refused_at(edited([](ojson& j) { flip(j["seed"]); }), "vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[0].node");
  expect_refused_at(edited([](ojson& j) { challenge(j, 0)["encoding_proof"]["layer_index"] = 1; }),
                    "vanilla_proofs.StackedDrg2KiBV1[0][0].encoding_proof.layer_index");
  expect_refused_at(edited([](ojson& j) { challenge(j, 0)["replica_column_proofs"]["c_x"]["column"]["_h"] = 0; }),
                    "vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.c_x.column._h");
  expect_refused_at(edited([](ojson& j) { challenge(j, 0)["comm_d_proofs"]["data"]["Single"]["leaf"][31] = 256; }),
                    "vanilla_proofs.StackedDrg2KiBV1[0][0].comm_d_proofs.data.Single.leaf");
  // Value >= r: all bytes 0xff.
  expect_refused_at(edited([](ojson& j) {
                      for (auto& b : j["replica_id"]) b = 255;
                    }),
                    "replica_id");
}

TEST(C1Json, VersionAndShapeMismatchesAreRefused) {
  // A V1_1 2 KiB C1 relabelled 8 MiB: the variant no longer matches.
  expect_refused_at(edited([](ojson& j) { j["registered_proof"] = "StackedDrg8MiBV1_1"; }),
                    "vanilla_proofs.StackedDrg2KiBV1");
  // Relabelled V1: another graph (porep_id and parent order), so parents do not match.
  try {
    read_c1_json(bytes(edited([](ojson& j) { j["registered_proof"] = "StackedDrg2KiBV1"; })));
    ADD_FAILURE() << "a V1_1 C1 read as V1 was accepted";
  } catch (const porep::vanilla_format_error& e) {
    EXPECT_NE(e.element().find("vanilla_proofs.StackedDrg2KiBV1[0]"), std::string::npos) << e.what();
  }
  expect_refused_at(edited([](ojson& j) { j["registered_proof"] = "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"; }),
                    "registered_proof");
  expect_refused_at(edited([](ojson& j) { j["registered_proof"] = "StackedDrg4KiBV1_1"; }), "registered_proof");
  expect_refused_at(edited([](ojson& j) { j["vanilla_proofs"]["StackedDrg2KiBV1"][0].erase(1); }),
                    "vanilla_proofs.StackedDrg2KiBV1[0]");
  expect_refused_at(edited([](ojson& j) { j.erase("ticket"); }), "C1 output");
}

TEST(C1Json, TruncatedAndMalformedText) {
  const std::string& t = c1_2k_text();
  const auto seed = test::seed("C1Json.TruncatedAndMalformedText");
  std::mt19937_64 rng(seed);
  for (int n = 0; n < 20; ++n) {
    const std::size_t cut = rng() % t.size();
    try {
      read_c1_json(bytes(t.substr(0, cut)));
      ADD_FAILURE() << "a C1 cut at byte " << cut << " was accepted";
    } catch (const porep::vanilla_format_error& e) {
      EXPECT_FALSE(e.element().empty());
    }
  }
  expect_refused_at("", "C1 output");
  expect_refused_at("[]", "C1 output");
  expect_refused_at("{\"registered_proof\":1}", "registered_proof");
  // A huge array outside the streamed challenges: refused before it costs 16 bytes a number.
  std::string big = "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"comm_r\":[";
  for (int i = 0; i < 70000; ++i) big += i ? ",\"x\"" : "\"x\"";
  expect_refused_at(big + "]}", "C1 output");
}

}  // namespace
}  // namespace cuzk::filecoin
