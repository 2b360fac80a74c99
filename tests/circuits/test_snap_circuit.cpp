// The EmptySectorUpdate circuit (circuits/snap_circuit) against
// rust-fil-proofs storage-proofs-update:
//  - tests/circuit.rs: 1,248,389 … 6,760,091 constraints for the 1 KiB …
//    32 KiB test shapes and 81,049,499 for the blank 32 GiB circuit;
//  - a closed form written here from the gadgets' own row counts (Poseidon
//    of arity 2 / 4 / 8: 311 / 377 / 505 rows, SHA-256 of two nodes 45,379,
//    insertion 2 / 8 / 22), for every allowed size;
//  - generated partitions satisfy it with upstream's public inputs
//    (k_and_h_select, comm_r_old, comm_d_new, comm_r_new), and a corrupted
//    witness does not.
#include <gtest/gtest.h>

#include <bit>

#include "circuits/snap_circuit.hpp"
#include "groth16/prover_checks.hpp"
#include "porep/snap_vanilla.hpp"
#include "r1cs/witness_cs.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using circuits::snap_circuit;
using porep::snap_shape_for;

namespace {

constexpr std::uint64_t kib = 1024, mib = kib * kib, gib = mib * kib;

std::uint64_t closed_form_rows(const porep::snap_shape_t& s) {
  const std::uint64_t sha = 45'379, p2 = 311;
  auto level = [](unsigned a) -> std::uint64_t { return a == 8 ? 22 + 505 : a == 4 ? 8 + 377 : 2 + 311; };
  std::uint64_t tree_r = 1;
  for (unsigned a : s.tree_r_arities()) tree_r += level(a);
  const std::uint64_t header = 1 + (s.partition_bit_len + 6) + 1  // k_and_h_select: inputize, bits, decomposition
                               + 1                                 // pack the partition bits
                               + 3                                 // three commitments inputized
                               + p2                                // phi
                               + 2 * (p2 + 1)                      // comm_r_old, comm_r_new checks
                               + (s.apex_leaves - 1) * sha + s.partition_bit_len * (2 + sha) + 1  // apex_por
                               + s.digests_per_partition() * (1 + p2 + 256);                     // challenge digests
  const std::uint64_t per_challenge = 6 * 2 + 1  // c_high
                                      + p2       // rho
                                      + 2        // leaf_r_new
                                      + 2 * tree_r + (s.apex_leaves - 1) + s.apex_height() * (2 + sha) + 1;
  return header + s.challenges * per_challenge;
}

}  // namespace

TEST(SnapCircuitCounts, UpstreamTestShapes) {
  const std::pair<std::uint64_t, std::uint64_t> want[] = {
      {kib, 1'248'389},      {2 * kib, 1'705'039},  {4 * kib, 2'165'109}, {8 * kib, 2'620'359},
      {16 * kib, 6'300'021}, {32 * kib, 6'760'091}, {32 * gib, 81'049'499},
  };
  for (const auto& [bytes, rows] : want) {
    const snap_circuit c(snap_shape_for(bytes));
    const auto n = c.counts();
    EXPECT_EQ(n.num_constraints, rows) << c.description();
    EXPECT_EQ(n.num_inputs, 5u) << c.description();
  }
}

TEST(SnapCircuitCounts, EverySizeMatchesTheClosedForm) {
  for (std::uint64_t bytes : porep::snap_sector_sizes()) {
    const snap_circuit c(snap_shape_for(bytes));
    EXPECT_EQ(c.counts().num_constraints, closed_form_rows(c.shape())) << c.description();
  }
}

namespace {

r1cs::witness_cs synthesize(const snap_circuit& c) {
  r1cs::witness_cs cs;
  c.synthesize(cs);
  return cs;
}

void expect_satisfied(const snap_circuit& c) {
  const r1cs::witness_cs cs = synthesize(c);
  EXPECT_NO_THROW(groth16::check_satisfied(cs.a(), cs.b(), cs.c())) << c.description();
  const auto want = c.public_inputs();
  ASSERT_EQ(cs.input_assignment().size(), want.size() + 1);
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(cs.input_assignment()[i + 1], want[i]) << i;
  const auto shape = c.counts();
  EXPECT_EQ(cs.num_constraints(), shape.num_constraints);
  EXPECT_EQ(cs.num_aux(), shape.num_aux);
}

}  // namespace

TEST(SnapCircuit, GeneratedPartitionsSatisfyIt) {
  const std::uint64_t seed = test::seed("SnapCircuit.GeneratedPartitionsSatisfyIt");
  for (std::uint64_t bytes : {kib, 2 * kib}) {
    const auto s = snap_shape_for(bytes);
    const porep::snap_sector_t sector(s, seed);
    auto w = std::make_shared<circuits::snap_witness_t>(circuits::snap_witness_t{sector.public_inputs(0),
                                                                                sector.partition_proof(0)});
    const snap_circuit c(s, w);
    expect_satisfied(c);
    EXPECT_EQ(c.public_inputs()[0], ff::fr_t::from_u64(1)) << "k = 0, h_select = 1";
  }
}

TEST(SnapCircuit, TheSecondPartitionOfA16KiBSector) {
  const std::uint64_t seed = test::seed("SnapCircuit.TheSecondPartitionOfA16KiBSector");
  const auto s = snap_shape_for(16 * kib);
  const porep::snap_sector_t sector(s, seed);
  auto w = std::make_shared<circuits::snap_witness_t>(
      circuits::snap_witness_t{sector.public_inputs(1), sector.partition_proof(1)});
  const snap_circuit c(s, w);
  expect_satisfied(c);
  EXPECT_EQ(c.public_inputs()[0], ff::fr_t::from_u64(1 | (1 << 1))) << "k = 1 below h_select = 1";
}

TEST(SnapCircuit, ACorruptedWitnessIsUnsatisfied) {
  const std::uint64_t seed = test::seed("SnapCircuit.ACorruptedWitnessIsUnsatisfied");
  const auto s = snap_shape_for(2 * kib);
  const porep::snap_sector_t sector(s, seed);
  const circuits::snap_witness_t good{sector.public_inputs(0), sector.partition_proof(0)};
  auto unsatisfied = [&](auto corrupt, const char* what) {
    auto w = std::make_shared<circuits::snap_witness_t>(good);
    corrupt(*w);
    const r1cs::witness_cs cs = synthesize(snap_circuit(s, w));
    EXPECT_THROW(groth16::check_satisfied(cs.a(), cs.b(), cs.c()), groth16::unsatisfied_witness) << what;
  };
  const ff::fr_t one = ff::fr_t::one();
  unsatisfied([&](auto& w) { w.proof.comm_c += one; }, "comm_c");
  unsatisfied([&](auto& w) { w.proof.challenges[3].r_old.leaf += one; }, "leaf_r_old");
  unsatisfied([&](auto& w) { w.proof.challenges[6].d_new.leaf += one; }, "leaf_d_new");
  unsatisfied([&](auto& w) { w.proof.challenges[9].r_new.path.siblings[1][2] += one; }, "path_r_new");
  unsatisfied([&](auto& w) { w.proof.apex_leaves[5] += one; }, "apex leaf");
  unsatisfied([&](auto& w) { w.pub.comm_d_new += one; }, "comm_d_new");
  unsatisfied([&](auto& w) { w.pub.comm_r_new += one; }, "comm_r_new (other challenges)");
  // A witness of the wrong shape is refused before synthesis, naming the element.
  auto w = std::make_shared<circuits::snap_witness_t>(good);
  w->proof.challenges[2].d_new.path.siblings.pop_back();
  try {
    snap_circuit bad(s, w);
    FAIL() << "a short Tree D path was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("challenge_proofs[2].proof_d_new.path"), std::string::npos) << e.what();
  }
}
