// Writes the seed corpora under fuzz/corpus/<target>/ from the tiny circuit
// with a fixed seed, so the files are reproducible:
//   cuzk_fuzz_corpus OUT_DIR SOURCE_DIR
// Each target gets a few valid inputs and a few near-misses (truncated, a bad
// flag, a count past the end), which lead the fuzzer to the deep paths quickly;
// the proof corpus also takes real Filecoin proofs from SOURCE_DIR's fixtures.
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
#include "groth16/groth16.hpp"
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
  return 0;
}
