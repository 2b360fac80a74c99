// Writes the seed corpora under fuzz/corpus/<target>/ from the tiny circuit
// with a fixed seed, so the files are reproducible:
//   cuzk_fuzz_corpus OUT_DIR SOURCE_DIR
// Each target gets a few valid inputs and a few near-misses (truncated, a bad
// flag, a count past the end), which lead the fuzzer to the deep paths quickly;
// the proof corpus also takes real Filecoin proofs from SOURCE_DIR's fixtures.
// The PoRep input corpora start from a replicated 2 KiB sector (the smallest
// Filecoin size: a C1 of ~100 KB, its envelope ~134 KB); libFuzzer takes the
// largest seed as its -max_len, so these are mutated whole.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "circuits/circuits.hpp"
#include "ec/ec.hpp"
#include "ec/off_subgroup_point.hpp"
#include "filecoin/c1_bincode.hpp"
#include "filecoin/c1_json.hpp"
#include "filecoin/curio_envelope.hpp"
#include "filecoin/registered_seal_proof_t.hpp"
#include "filecoin/snap_bincode.hpp"
#include "groth16/groth16.hpp"
#include "porep/snap_vanilla.hpp"
#include "porep/vanilla_generator.hpp"
#include "porep/vanilla_json.hpp"
#include "../fuzz_layout.hpp"

using namespace cuzk;
using bytes_t = std::vector<uint8_t>;

namespace {

std::filesystem::path out_root;

void put(const std::string& target, const std::string& name, const bytes_t& b) {
  auto dir = out_root / target;
  std::filesystem::create_directories(dir);
  std::ofstream f(dir / name, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}
void put(const std::string& target, const std::string& name, const std::string& s) {
  put(target, name, bytes_t(s.begin(), s.end()));
}
template <size_t N>
bytes_t to_vec(const std::array<uint8_t, N>& a) {
  return bytes_t(a.begin(), a.end());
}

bytes_t params_bytes(const groth16::parameters_t& p) {
  bytes_t out;
  fuzz::append_vk(out, p.vk);
  fuzz::append_points(out, p.h);
  fuzz::append_points(out, p.l);
  fuzz::append_points(out, p.a);
  fuzz::append_points(out, p.b_g1);
  fuzz::append_points(out, p.b_g2);
  return out;
}

void parameters_and_keys() {
  auto circuit = circuits::make_circuit("tiny");
  groth16::seeded_rng rng(20240601);
  auto params = groth16::generate_parameters(*circuit, groth16::toxic_waste_t::random(rng));
  bytes_t pb = params_bytes(params);
  bytes_t vk;
  fuzz::append_vk(vk, params.vk);

  put("fuzz_parameters", "valid_tiny", pb);
  put("fuzz_parameters", "truncated_in_b_g2", bytes_t(pb.begin(), pb.end() - 100));
  bytes_t trailing = pb;
  trailing.push_back(0);
  put("fuzz_parameters", "trailing_byte", trailing);
  bytes_t huge = pb;
  const size_t h_count = vk.size();  // the h count follows the key
  huge[h_count] = huge[h_count + 1] = huge[h_count + 2] = huge[h_count + 3] = 0xff;
  put("fuzz_parameters", "huge_h_count", huge);
  bytes_t bad = pb;
  bad[h_count + 4 + 95] ^= 1;  // h[0].y off by a bit: off the curve
  put("fuzz_parameters", "h0_off_curve", bad);

  put("fuzz_verifying_key", "valid_tiny", vk);
  put("fuzz_verifying_key", "parameters_not_key", bytes_t(pb.begin(), pb.begin() + long(vk.size()) + 4 + 96));
  bytes_t no_ic(vk.begin(), vk.begin() + long(vk.size() - 4 - 96 * params.vk.ic.size()));
  fuzz::append_u32(no_ic, 0);
  put("fuzz_verifying_key", "empty_ic", no_ic);
  bytes_t inf_alpha = vk;
  std::fill(inf_alpha.begin(), inf_alpha.begin() + 96, 0);
  inf_alpha[0] = 0x40;
  put("fuzz_verifying_key", "infinite_alpha", inf_alpha);

  auto proof = groth16::prove(params, *circuit, rng).encode();
  put("fuzz_proof", "tiny", to_vec(proof));
  auto flipped = proof;
  flipped[48] ^= 0x80;
  put("fuzz_proof", "b_uncompressed_flag", to_vec(flipped));
  groth16::proof_t inf{ec::g1_affine_t::infinity(), ec::g2_affine_t::infinity(), ec::g1_affine_t::infinity()};
  put("fuzz_proof", "all_infinity", to_vec(inf.encode()));
  auto outside = proof;
  auto c = ec::compress(ec::off_subgroup_point<ec::g1_curve>());
  std::copy(c.begin(), c.end(), outside.begin() + 144);
  put("fuzz_proof", "c_outside_subgroup", to_vec(outside));

  put("fuzz_public_inputs", "tiny", groth16::format_public_inputs(circuit->public_inputs()));
}

void public_inputs() {
  put("fuzz_public_inputs", "hex_and_decimal", std::string(R"(["0x1f", "0", "12345678901234567890123456789"])"));
  // r - 1 is the largest accepted value, r the smallest rejected one.
  put("fuzz_public_inputs", "r_minus_1",
      std::string(R"(["52435875175126190479447740508185965837690552500527637822603658699938581184512"])"));
  put("fuzz_public_inputs", "r", std::string(R"(["52435875175126190479447740508185965837690552500527637822603658699938581184513"])"));
  put("fuzz_public_inputs", "not_strings", std::string(R"([1, [2], {"a": "3"}, null])"));
  put("fuzz_public_inputs", "empty", std::string("[]"));
}

void points() {
  auto g1 = ec::g1_generator();
  auto g2 = ec::g2_generator();
  put("fuzz_point", "g1_compressed", to_vec(ec::compress(g1)));
  put("fuzz_point", "g1_uncompressed", to_vec(ec::serialize(-g1)));
  put("fuzz_point", "g2_compressed", to_vec(ec::compress(-g2)));
  put("fuzz_point", "g2_uncompressed", to_vec(ec::serialize(g2)));
  put("fuzz_point", "g1_infinity", to_vec(ec::compress(ec::g1_affine_t::infinity())));
  put("fuzz_point", "g2_infinity_uncompressed", to_vec(ec::serialize(ec::g2_affine_t::infinity())));
  put("fuzz_point", "g1_outside_subgroup", to_vec(ec::compress(ec::off_subgroup_point<ec::g1_curve>())));
  put("fuzz_point", "g2_outside_subgroup", to_vec(ec::serialize(ec::off_subgroup_point<ec::g2_curve>())));
  auto big = ec::compress(g1);
  big[0] |= 0x1f;
  put("fuzz_point", "g1_x_above_p", to_vec(big));
}

// Real proofs: one per sector size from rust-fil-proofs' regression records.
void filecoin_proofs(const std::filesystem::path& source_dir) {
  std::ifstream in(source_dir / "tests/fixtures/filecoin/seal_regression_records-v16.json");
  std::set<uint64_t> seen;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto rec = nlohmann::json::parse(line);
    uint64_t sector = rec["porep_config"]["sector_size"].get<uint64_t>();
    auto proof = rec["proof"].get<bytes_t>();
    if (!seen.insert(sector).second || proof.size() < groth16::proof_size) continue;
    put("fuzz_proof", "filecoin_" + std::to_string(sector), bytes_t(proof.begin(), proof.begin() + groth16::proof_size));
  }
}

bytes_t as_bytes(const std::string& s) { return bytes_t(s.begin(), s.end()); }
std::string envelope(std::uint64_t sector_num, std::uint64_t sector_size, const std::string& c1) {
  return filecoin::write_curio_envelope(sector_num, sector_size, as_bytes(c1));
}

// The first "leaf" integer of the text plus one: still well-formed, but the
// opening no longer hashes to its root, so the checks past the shapes run.
std::string bump_first_leaf(std::string c1) {
  const size_t at = c1.find("\"leaf\":[") + 8;
  const size_t end = c1.find_first_of(",]", at);
  const int v = std::stoi(c1.substr(at, end - at));
  return c1.replace(at, end - at, std::to_string((v + 1) % 256));
}

// The dispatch and all three formats (read_porep_input): a valid sector in
// each, near-misses past the shape checks, and small edge cases for each branch.
void porep_inputs() {
  const auto& rp = filecoin::seal_proof_for(2048, filecoin::seal_version_t::v1_1);
  const auto vanilla = porep::generate_vanilla(rp.sector_params(), 20240601);
  const std::string c1 = filecoin::write_c1_json(filecoin::make_c1_output(rp, vanilla));
  const std::string env = envelope(7, rp.sector_bytes, c1);
  const std::string t = "fuzz_c1_json";
  put(t, "c1_2kib", c1);
  put(t, "curio_2kib", env);
  put(t, "cuzk_2kib", porep::vanilla_to_json(vanilla).dump());
  put(t, "bincode_2kib", filecoin::write_c1_bincode(filecoin::make_c1_output(rp, vanilla)));
  put(t, "c1_leaf_off_by_one", bump_first_leaf(c1));
  put(t, "c1_truncated", c1.substr(0, 4096));
  put(t, "curio_truncated", env.substr(0, 4096));
  put(t, "empty_object", std::string("{}"));
  put(t, "empty", std::string(""));
  put(t, "not_json_object", std::string(" [1, 2]"));
  put(t, "c1_only_proof", std::string(R"({"registered_proof":"StackedDrg2KiBV1_1","vanilla_proofs":{}})"));
  put(t, "c1_unknown_proof", std::string(R"({"registered_proof":"StackedDrg4KiBV1","vanilla_proofs":{}})"));
  put(t, "cuzk_only_format", std::string(R"({"format":"cuzk-porep-vanilla/1"})"));
  put(t, "curio_phase1out_empty_object", envelope(1, 2048, "{}"));
  put(t, "curio_phase1out_not_json", envelope(1, 2048, "xyz"));
  put(t, "curio_phase1out_bad_base64", std::string(R"({"SectorNum":1,"Phase1Out":"e3=0","SectorSize":2048})"));
}

// read_curio_envelope's members and types, and base64 on its own (the bytes
// are also fed to base64_decode, so plain base64 texts are seeds as well).
void curio_envelopes() {
  const std::string t = "fuzz_curio_envelope";
  put(t, "tiny", envelope(1, 2048, "{}"));
  put(t, "c1_prefix", envelope(18446744073709551615ull, 34359738368ull,
                               R"({"registered_proof":"StackedDrg32GiBV1_1","vanilla_proofs":{"StackedDrg32GiBV1":[[)"));
  put(t, "reordered_spaced", std::string(" {\n \"SectorSize\": 2048,\n \"SectorNum\": 3,\n \"Phase1Out\": \"QUI=\" }"));
  put(t, "extra_members", std::string(R"({"Phase1Out":"","x":[{"SectorNum":"a"}],"SectorNum":0,"SectorSize":0})"));
  put(t, "missing_sector_num", std::string(R"({"SectorSize":2048,"Phase1Out":"QUJD"})"));
  put(t, "negative_sector_num", std::string(R"({"SectorNum":-1,"Phase1Out":"QUJD","SectorSize":2048})"));
  put(t, "phase1out_number", std::string(R"({"SectorNum":1,"Phase1Out":12,"SectorSize":2048})"));
  put(t, "phase1out_object", std::string(R"({"SectorNum":1,"Phase1Out":{},"SectorSize":2048})"));
  put(t, "phase1out_pad_inside", std::string(R"({"SectorNum":1,"Phase1Out":"QQ==QUJD","SectorSize":2048})"));
  put(t, "phase1out_not_multiple_of_4", std::string(R"({"SectorNum":1,"Phase1Out":"QUJDR","SectorSize":2048})"));
  put(t, "sector_size_float", std::string(R"({"SectorNum":1,"Phase1Out":"","SectorSize":2048.0})"));
  put(t, "base64_one_pad", std::string("QUI="));
  put(t, "base64_two_pad", std::string("QUJDRA=="));
  put(t, "base64_no_pad", std::string("QUJD+/90"));
  put(t, "base64_bad_char", std::string("QU-D"));
}

// Partition 0 of a generated SnapDeals sector, as bincode(PartitionProof).
std::string snap_partition(std::uint64_t sector_bytes) {
  const auto shape = porep::snap_shape_for(sector_bytes);
  return filecoin::write_snap_partition_bincode(porep::snap_sector_t(shape, 20240601).partition_proof(0), shape);
}

// read_snap_partition_bincode: 2 KiB (Tree R 8-0-0, Single proofs), the
// 1 KiB test size (8-4-0, Sub proofs) and a cut 2 KiB blob.
void snap_partitions() {
  const std::string t = "fuzz_snap_bincode";
  const std::string two_kib = snap_partition(2048);
  put(t, "snap_2kib", two_kib);
  put(t, "snap_1kib", snap_partition(1024));
  put(t, "snap_2kib_truncated", two_kib.substr(0, 1000));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s OUT_DIR SOURCE_DIR\n", argv[0]);
    return 2;
  }
  out_root = argv[1];
  parameters_and_keys();
  public_inputs();
  points();
  filecoin_proofs(argv[2]);
  porep_inputs();
  curio_envelopes();
  snap_partitions();
  return 0;
}
