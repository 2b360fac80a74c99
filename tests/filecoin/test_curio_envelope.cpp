// Curio's envelope of a C1 output, base64 (RFC 4648 vectors), prover_id from
// a miner id (LEB128, FILECOIN_FORMATS.md §2), the registered-proof table, and
// the checks a request adds (sizes, replica_id from miner id and sector number).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "filecoin/c1_json.hpp"
#include "filecoin/curio_envelope.hpp"
#include "filecoin/porep_input.hpp"
#include "porep/vanilla_generator.hpp"
#include "porep/vanilla_json.hpp"

namespace cuzk::filecoin {
namespace {

std::span<const std::uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}
std::string text(const std::vector<std::uint8_t>& v) { return {v.begin(), v.end()}; }

TEST(Base64, Rfc4648Vectors) {
  const std::vector<std::pair<std::string, std::string>> v = {{"", ""},         {"f", "Zg=="},     {"fo", "Zm8="},
                                                              {"foo", "Zm9v"},  {"foob", "Zm9vYg=="},
                                                              {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, enc] : v) {
    EXPECT_EQ(base64_encode(bytes(plain)), enc);
    EXPECT_EQ(text(base64_decode(enc)), plain);
  }
  std::string all;
  for (int i = 0; i < 256; ++i) all += char(i);
  EXPECT_EQ(text(base64_decode(base64_encode(bytes(all)))), all);
}

TEST(Base64, ErrorsNameTheOffset) {
  auto msg = [](std::string_view s) {
    try {
      base64_decode(s);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(msg("Zm9v!mFy"), "not base64 at character 4 ('!')");
  EXPECT_NE(msg("Zm9vYmF").find("not a multiple of 4"), std::string::npos);
  EXPECT_EQ(msg("Zg==Zg=="), "not base64 at character 2 ('=')");  // padding only at the end
  EXPECT_EQ(msg("Z==="), "not base64 at character 1 ('=')");
}

TEST(ProverId, Leb128LeftAligned) {
  auto p = prover_id_from_miner(1000);
  EXPECT_EQ(p[0], 0xe8);
  EXPECT_EQ(p[1], 0x07);
  for (int i = 2; i < 32; ++i) EXPECT_EQ(p[i], 0);
  EXPECT_EQ(prover_id_from_miner(0)[0], 0);
  EXPECT_EQ(prover_id_from_miner(127)[0], 127);
  auto q = prover_id_from_miner(128);
  EXPECT_EQ(q[0], 0x80);
  EXPECT_EQ(q[1], 0x01);
  auto m = prover_id_from_miner(~std::uint64_t(0));  // 64 bits: 10 LEB128 bytes, the last 0x01
  for (int i = 0; i < 9; ++i) EXPECT_EQ(m[i], 0xff);
  EXPECT_EQ(m[9], 0x01);
  EXPECT_EQ(m[10], 0);
}

TEST(RegisteredSealProof, TableMatchesTheProofsApi) {
  // rust-filecoin-proofs-api registry.rs: declaration order gives the numbers.
  EXPECT_EQ(seal_proof_by_id(0).name(), "StackedDrg2KiBV1");
  EXPECT_EQ(seal_proof_by_id(8).name(), "StackedDrg32GiBV1_1");
  EXPECT_EQ(seal_proof_by_id(13).name(), "StackedDrg32GiBV1_1_Feat_SyntheticPoRep");
  EXPECT_EQ(seal_proof_by_id(19).name(), "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep");
  EXPECT_EQ(seal_proof_by_name("StackedDrg512MiBV1_1").id, 7u);
  EXPECT_EQ(seal_proof_by_id(13).vanilla_variant(), "StackedDrg32GiBV1");
  for (const auto& rp : registered_seal_proofs()) {
    EXPECT_EQ(&seal_proof_by_name(rp.name()), &seal_proof_by_id(rp.id));
    if (rp.version == seal_version_t::v1_2_non_interactive) {
      EXPECT_THROW(rp.sector_params(), std::invalid_argument);
      continue;
    }
    const auto p = rp.sector_params();
    EXPECT_EQ(p.sector_bytes, rp.sector_bytes);
    EXPECT_EQ(p.porep_id()[0], rp.id);  // porep_id = id u64 LE, nonce 0
  }
  EXPECT_THROW(seal_proof_by_id(20), std::invalid_argument);
  EXPECT_THROW(seal_proof_by_name("StackedDrg2KiBV2"), std::invalid_argument);
}

struct fixture_t {
  std::string c1, envelope;
};

const fixture_t& fixture() {
  static const fixture_t f = [] {
    const auto& rp = seal_proof_by_name("StackedDrg2KiBV1_1");
    auto v = porep::generate_replicated(rp.sector_params(), 9, {prover_id_from_miner(1000), 7});
    fixture_t out;
    out.c1 = write_c1_json(make_c1_output(rp, std::move(v)));
    out.envelope = write_curio_envelope(7, 2048, bytes(out.c1));
    return out;
  }();
  return f;
}

TEST(CurioEnvelope, GoFieldOrderAndRoundTrip) {
  const auto& f = fixture();
  EXPECT_TRUE(f.envelope.starts_with("{\"SectorNum\":7,\"Phase1Out\":\"eyJy"));  // base64 of {"r
  EXPECT_TRUE(f.envelope.ends_with("\",\"SectorSize\":2048}"));
  auto e = read_curio_envelope(bytes(f.envelope));
  EXPECT_EQ(e.sector_num, 7u);
  EXPECT_EQ(e.sector_size, 2048u);
  EXPECT_EQ(text(e.phase1_out), f.c1);
  // Whitespace and another member order (what a re-serializing client may send).
  const std::string loose = "{ \"SectorSize\" : 2048 ,\n \"Extra\": [1, {\"a\": null}], \"Phase1Out\" : \"" +
                            base64_encode(bytes(f.c1)) + "\", \"SectorNum\": 7 }";
  EXPECT_TRUE(looks_like_curio_envelope(bytes(loose)));
  EXPECT_EQ(text(read_curio_envelope(bytes(loose)).phase1_out), f.c1);
}

void expect_envelope_error(const std::string& env, const std::string& element, const std::string& what) {
  try {
    read_curio_envelope(bytes(env));
    ADD_FAILURE() << "accepted: " << env.substr(0, 80);
  } catch (const porep::vanilla_format_error& e) {
    EXPECT_EQ(e.element(), element) << e.what();
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(CurioEnvelope, BadEnvelopesNameTheMember) {
  expect_envelope_error("{\"SectorNum\":7,\"SectorSize\":2048}", "Curio envelope", "missing \"Phase1Out\"");
  expect_envelope_error("{\"SectorNum\":7,\"Phase1Out\":\"Zg==\"}", "Curio envelope", "missing \"SectorSize\"");
  expect_envelope_error("{\"SectorNum\":\"7\",\"Phase1Out\":\"Zg==\",\"SectorSize\":1}", "SectorNum",
                        "non-negative integer");
  expect_envelope_error("{\"SectorNum\":7,\"Phase1Out\":[1,2],\"SectorSize\":1}", "Phase1Out", "base64 string");
  expect_envelope_error("{\"SectorNum\":7,\"Phase1Out\":\"Zm9v!mFy\",\"SectorSize\":1}", "Phase1Out",
                        "not base64 at character 4");
  expect_envelope_error("{\"SectorNum\":7,\"Phase1Out\":\"Zg==\",\"SectorSize\":-1}", "SectorSize",
                        "non-negative integer");
  expect_envelope_error("{\"SectorNum\":7,\"Phase1Out\":\"Zg==\"", "Curio envelope", "not valid JSON");
  expect_envelope_error(fixture().envelope.substr(0, 5000), "Curio envelope", "not valid JSON");
}

porep_input_t read(const std::string& s) { return read_porep_input(bytes(s)); }

TEST(PorepInput, FormatsAreToldApart) {
  const auto& f = fixture();
  const auto a = read(f.envelope), b = read(f.c1);
  EXPECT_EQ(a.format, porep_input_format_t::curio_envelope);
  EXPECT_EQ(b.format, porep_input_format_t::c1_json);
  EXPECT_EQ(a.sector_num, 7u);
  EXPECT_EQ(porep::vanilla_to_json(a.vanilla), porep::vanilla_to_json(b.vanilla));
  const std::string ours = porep::vanilla_to_json(porep::generate_replicated(porep::sector_params_for(2048), 9)).dump();
  EXPECT_EQ(read(ours).format, porep_input_format_t::cuzk_vanilla);
  EXPECT_THROW(read("\x01\x02"), porep::vanilla_format_error);
  EXPECT_THROW(read("  "), porep::vanilla_format_error);
}

std::string check_error(const porep_input_t& in, const porep_request_facts_t& f) {
  try {
    check_porep_request(in, f);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

TEST(PorepInput, RequestFactsAreChecked) {
  const auto in = read(fixture().envelope);
  // What Curio sends: the size, the registered proof, miner id and sector number.
  EXPECT_EQ(check_error(in, {.sector_size = 2048, .registered_proof = 5, .miner_id = 1000, .sector_number = 7}),
            "accepted");
  // The envelope's SectorNum stands in for a missing sector_number.
  EXPECT_EQ(check_error(in, {.miner_id = 1000}), "accepted");
  EXPECT_NE(check_error(in, {.miner_id = 1001}).find("replica_id: the C1's replica_id is not the one derived from "
                                                     "miner_id 1001 and sector_number 7"),
            std::string::npos);
  EXPECT_NE(check_error(in, {.miner_id = 1000, .sector_number = 8}).find("replica_id"), std::string::npos);
  EXPECT_NE(check_error(in, {.sector_size = 8 << 20}).find("sector_size: the request says 8MiB"), std::string::npos);
  EXPECT_NE(check_error(in, {.registered_proof = 8}).find("registered_proof: 8 (StackedDrg32GiBV1_1)"),
            std::string::npos);
  // An envelope whose SectorSize disagrees with its C1.
  const auto bad = read(write_curio_envelope(7, 32ull << 30, bytes(fixture().c1)));
  EXPECT_NE(check_error(bad, {}).find("SectorSize: the envelope says 34359738368 bytes"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::filecoin
