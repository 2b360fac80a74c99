// Setup -> prove -> verify round trips on the built-in circuits, file formats,
// and rejection of wrong proofs, inputs and files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "circuits/circuits.hpp"
#include "ec/off_subgroup_point.hpp"
#include "groth16/groth16.hpp"
#include "groth16/prover_checks.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using namespace cuzk::groth16;

namespace {

struct fixture_t {
  std::unique_ptr<circuits::any_circuit> circuit;
  parameters_t params;
};

fixture_t make(const char* name, size_t size, uint64_t seed) {
  fixture_t f{circuits::make_circuit(name, size), {}};
  seeded_rng rng(seed);
  f.params = generate_parameters(*f.circuit, toxic_waste_t::random(rng));
  return f;
}

std::string temp_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("cuzk_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

}  // namespace

class groth16_round_trip : public ::testing::TestWithParam<std::pair<const char*, size_t>> {};

TEST_P(groth16_round_trip, proves_and_verifies) {
  uint64_t seed = test::seed("groth16_round_trip");
  auto f = make(GetParam().first, GetParam().second, seed);
  seeded_rng rng(seed + 1);
  proof_t proof = prove(f.params, *f.circuit, rng);
  auto inputs = f.circuit->public_inputs();
  prepared_vk_t pvk(f.params.vk);
  EXPECT_TRUE(pvk.verify(proof, inputs));

  // Through the 192-byte encoding.
  auto bytes = proof.encode();
  proof_t back;
  ASSERT_TRUE(decode_proof(bytes, back).ok());
  EXPECT_EQ(back, proof);
  EXPECT_TRUE(pvk.verify(back, inputs));

  // A changed public input fails; so does a proof for other inputs.
  auto bad = inputs;
  bad[0] += fr_t::one();
  EXPECT_FALSE(pvk.verify(proof, bad));
  EXPECT_THROW(pvk.verify(proof, std::span(inputs).first(inputs.size() - 1)), std::invalid_argument);
  proof_t swapped = proof;
  std::swap(swapped.a, swapped.c);
  EXPECT_FALSE(pvk.verify(swapped, inputs));
}

INSTANTIATE_TEST_SUITE_P(circuits, groth16_round_trip,
                         ::testing::Values(std::make_pair("tiny", size_t(0)), std::make_pair("hash-chain", size_t(1000))));

TEST(groth16, same_r_s_give_identical_proofs_and_batch_verifies) {
  uint64_t seed = test::seed("groth16_batch");
  auto f = make("hash-chain", 300, seed);
  seeded_rng rng(seed ^ 0x55);
  fr_t r = fr_t::random(rng), s = fr_t::random(rng);
  auto p1 = finalize(f.params, prove_start(f.params, synthesize_witness(*f.circuit)), r, s);
  auto p2 = finalize(f.params, prove_start(f.params, synthesize_witness(*f.circuit)), r, s);
  EXPECT_EQ(p1.encode(), p2.encode());

  std::vector<proof_t> proofs;
  std::vector<std::vector<fr_t>> inputs;
  for (int i = 0; i < 4; ++i) {
    proofs.push_back(prove(f.params, *f.circuit, rng));
    inputs.push_back(f.circuit->public_inputs());
  }
  prepared_vk_t pvk(f.params.vk);
  EXPECT_TRUE(verify_batch(pvk, std::span<const proof_t>(proofs), std::span<const std::vector<fr_t>>(inputs), rng));
  inputs[2][0] += fr_t::one();
  EXPECT_FALSE(verify_batch(pvk, std::span<const proof_t>(proofs), std::span<const std::vector<fr_t>>(inputs), rng));
}

// A verifying key and proofs made from known exponents: for any inputs x,
// C = ((a·b - α·β - γ·(k_0 + sum x_j·k_(j+1)))/δ)·G1 satisfies the verification
// equation, so the verifier's input sum (the CPU MSM over 3,000 inputs of
// every kind: zeros, ones, small, wide) is checked against exponent arithmetic
// done here, alone and folded in a batch.
TEST(groth16, verifies_many_public_inputs_against_exponent_arithmetic) {
  const uint64_t seed = test::seed("groth16.many_inputs");
  seeded_rng rng(seed);
  const auto g1 = [](const fr_t& e) { return ec::g1_jacobian_t::from_affine(ec::g1_generator()).mul(e).to_affine(); };
  const auto g2 = [](const fr_t& e) { return ec::g2_jacobian_t::from_affine(ec::g2_generator()).mul(e).to_affine(); };
  const size_t n = 3000;
  const fr_t alpha = fr_t::random(rng), beta = fr_t::random(rng), gamma = fr_t::random(rng),
             delta = fr_t::random(rng);
  std::vector<fr_t> k(n + 1);
  verifying_key_t vk{g1(alpha), g1(beta), g2(beta), g2(gamma), g1(delta), g2(delta), {}};
  for (auto& e : k) {
    e = fr_t::random(rng);
    vk.ic.push_back(g1(e));
  }
  const auto inputs_for = [&](uint64_t salt) {
    std::vector<fr_t> x(n);
    for (size_t j = 0; j < n; ++j) {
      switch ((j + salt) % 4) {
        case 0: x[j] = fr_t::zero(); break;
        case 1: x[j] = fr_t::one(); break;
        case 2: x[j] = fr_t::from_u64(j * 977 + salt); break;
        default: x[j] = fr_t::random(rng);
      }
    }
    return x;
  };
  const auto proof_for = [&](const std::vector<fr_t>& x) {
    const fr_t a = fr_t::random(rng), b = fr_t::random(rng);
    fr_t ic = k[0];
    for (size_t j = 0; j < n; ++j) ic += x[j] * k[j + 1];
    return proof_t{g1(a), g2(b), g1((a * b - alpha * beta - gamma * ic) * delta.inverse())};
  };
  const prepared_vk_t pvk(vk);
  std::vector<std::vector<fr_t>> inputs;
  std::vector<proof_t> proofs;
  for (uint64_t salt = 0; salt < 3; ++salt) {
    inputs.push_back(inputs_for(salt));
    proofs.push_back(proof_for(inputs.back()));
    EXPECT_TRUE(pvk.verify(proofs.back(), inputs.back())) << "proof " << salt;
  }
  EXPECT_TRUE(verify_batch(pvk, std::span<const proof_t>(proofs), std::span<const std::vector<fr_t>>(inputs), rng));
  auto bad = inputs;
  bad[1][1234] += fr_t::one();
  EXPECT_FALSE(pvk.verify(proofs[1], bad[1]));
  EXPECT_FALSE(verify_batch(pvk, std::span<const proof_t>(proofs), std::span<const std::vector<fr_t>>(bad), rng));
  bad[1].pop_back();
  EXPECT_THROW(pvk.verify(proofs[1], bad[1]), std::invalid_argument);
  EXPECT_THROW(verify_batch(pvk, std::span<const proof_t>(proofs), std::span<const std::vector<fr_t>>(bad), rng),
               std::invalid_argument);
}

TEST(groth16, parameter_and_key_files_round_trip) {
  auto f = make("tiny", 0, test::seed("groth16_files"));
  auto pp = temp_path("tiny.params"), vp = temp_path("tiny.vk");
  write_parameters(pp, f.params);
  write_verifying_key(vp, f.params.vk);
  EXPECT_EQ(read_parameters(pp), f.params);
  EXPECT_EQ(read_verifying_key(vp), f.params.vk);
  EXPECT_EQ(summarize_file(pp).kind, "parameters");
  EXPECT_EQ(summarize_file(vp).kind, "verifying key");
  // A parameter file is not a verifying key and vice versa.
  EXPECT_THROW(read_verifying_key(pp), format_error);
  EXPECT_THROW(read_parameters(vp), format_error);
}

TEST(groth16, corrupted_files_are_rejected_with_reasons) {
  auto f = make("tiny", 0, test::seed("groth16_corrupt"));
  auto pp = temp_path("c.params");
  write_parameters(pp, f.params);
  std::ifstream in(pp, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  auto expect_error = [&](std::vector<uint8_t> b, const std::string& needle) {
    try {
      parse_parameters(b, "p.params");
      ADD_FAILURE() << "accepted a corrupted file; expected " << needle;
    } catch (const format_error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  for (size_t cut : {size_t(0), size_t(10), size_t(96), bytes.size() / 2, bytes.size() - 1})
    expect_error(std::vector<uint8_t>(bytes.begin(), bytes.begin() + std::ptrdiff_t(cut)), "truncated");
  auto t = bytes;
  t.push_back(0);
  expect_error(t, "trailing");
  // alpha_g1's x >= p: set the top non-flag bits.
  t = bytes;
  t[0] |= 0x1f;
  expect_error(t, "vk.alpha_g1");
  // Perturb y of the first h point: off the curve.
  size_t vk_bytes = 96 * 3 + 192 * 3 + 4 + 96 * f.params.vk.ic.size();
  t = bytes;
  t[vk_bytes + 4 + 95] ^= 1;
  expect_error(t, "h[0]: point not on the curve");
  // Infinity is forbidden in parameters.
  t = bytes;
  std::fill(t.begin() + std::ptrdiff_t(vk_bytes + 4), t.begin() + std::ptrdiff_t(vk_bytes + 4 + 96), 0);
  t[vk_bytes + 4] = 0x40;
  expect_error(t, "h[0]: point at infinity");
  // A huge declared count must not allocate or crash.
  t = bytes;
  t[vk_bytes] = 0xff;
  expect_error(t, "truncated");
  // On the curve, outside the prime-order subgroup: refused unless the caller
  // skips the subgroup check; a point off the curve is refused either way.
  t = bytes;
  const auto outside = ec::serialize(ec::off_subgroup_point<ec::g1_curve>());
  std::copy(outside.begin(), outside.end(), t.begin() + std::ptrdiff_t(vk_bytes + 4));
  expect_error(t, "h[0]: point not in the prime-order subgroup");
  EXPECT_EQ(parse_parameters(t, "p.params", ec::subgroup_check::skip).h[0],
            ec::off_subgroup_point<ec::g1_curve>());
  t[vk_bytes + 4 + 95] ^= 1;
  EXPECT_THROW(parse_parameters(t, "p.params", ec::subgroup_check::skip), format_error);
}

TEST(groth16, unsatisfied_witness_and_mismatched_parameters_are_refused) {
  auto f = make("tiny", 0, test::seed("groth16_unsat"));
  circuits::circuit_model<circuits::tiny_circuit> wrong(
      "tiny", circuits::tiny_circuit().with_claimed_y(fr_t::from_u64(12345)));
  try {
    prove_start(f.params, synthesize_witness(wrong));
    ADD_FAILURE() << "proved an unsatisfied witness";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("does not satisfy constraint"), std::string::npos) << e.what();
  }
  auto other = make("hash-chain", 100, 1);
  EXPECT_THROW(prove_start(other.params, synthesize_witness(*f.circuit)), std::invalid_argument);

  // The engine's early check (check_witness_rows, right after synthesis)
  // refuses the same witness and leaves it unmarked; a satisfied one is
  // marked, and prove_start trusts the mark (no second pass): a marked
  // unsatisfied witness goes through, and its proof does not verify.
  auto bad = synthesize_witness(wrong);
  EXPECT_THROW(check_witness_rows(bad), std::invalid_argument);
  EXPECT_FALSE(bad.rows_checked());
  auto good = synthesize_witness(*f.circuit);
  check_witness_rows(good);
  EXPECT_TRUE(good.rows_checked());
  bad.mark_rows_checked();
  seeded_rng rng(7);
  const auto proof = finalize(f.params, prove_start(f.params, std::move(bad)), fr_t::random(rng), fr_t::random(rng));
  EXPECT_FALSE(prepared_vk_t(f.params.vk).verify(proof, wrong.public_inputs()));
}
