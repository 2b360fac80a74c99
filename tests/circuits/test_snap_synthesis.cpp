// Compiled synthesis of a SnapDeals partition (circuits/snap_synthesis.hpp)
// against plain witness mode (r1cs::witness_cs running snap_circuit with
// input rows): inputs, aux, every row of a, b, c and the four density
// bitmaps; the compact witness and the device's row code emulated on the
// host; the setup's columns against a key-generation pass; a corrupted
// opening caught by the row check in its own challenge's block. The
// windows (each challenge's random bits, a slice of one digest's bits) are
// exercised across digests by a 1 KiB shape with 60 challenges (two digests
// of 50 and 10 challenges), besides the 1 KiB and 16 KiB shapes upstream
// tests; at 32 GiB the compiled form is a top block and one challenge block.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>

#include "circuits/circuit_model.hpp"
#include "circuits/snap_circuit.hpp"
#include "circuits/snap_partition_circuit_t.hpp"
#include "circuits/snap_synthesis.hpp"
#include "gpu/rows_emulation.hpp"
#include "groth16/prover_checks.hpp"
#include "groth16/groth16.hpp"
#include "porep/snap_vanilla.hpp"
#include "r1cs/witness_cs.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using circuits::snap_circuit;
using ff::fr_t;
using porep::snap_shape_for;

namespace {

constexpr std::uint64_t kib = 1024, gib = kib * kib * kib;

std::vector<std::uint64_t> words(const r1cs::density_tracker& d) { return {d.words().begin(), d.words().end()}; }

snap_circuit generated(const porep::snap_shape_t& s, unsigned k, std::uint64_t seed) {
  const porep::snap_sector_t sector(s, seed);
  return snap_circuit(s, std::make_shared<const circuits::snap_witness_t>(
                             circuits::snap_witness_t{sector.public_inputs(k), sector.partition_proof(k)}));
}

// 1 KiB with 60 challenges: 5 random bits each, 50 per digest, so two digests.
porep::snap_shape_t two_digest_shape() {
  porep::snap_shape_t s = snap_shape_for(kib);
  s.challenges = 60;
  return s;
}

void expect_compiled_matches_plain(const snap_circuit& c) {
  const circuits::snap_partition_circuit_t compiled(c);
  r1cs::witness_cs plain;
  c.synthesize(plain);
  plain.add_input_constraints();
  ASSERT_EQ(compiled.prove_shape(), plain.counts()) << c.description();
  const circuits::porep_witness_t w = circuits::synthesize_snap_compiled(c, compiled.compiled());
  ASSERT_EQ(w.a.size(), plain.num_constraints());
  EXPECT_TRUE(std::ranges::equal(w.inputs, plain.input_assignment())) << c.description();
  EXPECT_TRUE(std::ranges::equal(w.aux, plain.aux_assignment())) << c.description();
  for (std::size_t i = 0; i < w.a.size(); ++i) {
    if (!(w.a[i] == plain.a()[i] && w.b[i] == plain.b()[i] && w.c[i] == plain.c()[i])) {
      FAIL() << c.description() << ": row " << i << " differs";
    }
  }
  EXPECT_EQ(w.a_aux_density, words(plain.a_aux_density()));
  EXPECT_EQ(w.b_aux_density, words(plain.b_aux_density()));
  EXPECT_EQ(w.a_input_density, words(plain.a_input_density()));
  EXPECT_EQ(w.b_input_density, words(plain.b_input_density()));
  r1cs::witness_cs handed = compiled.prove_witness(compiled.prove_shape());
  EXPECT_TRUE(std::ranges::equal(handed.c(), plain.c()));
  EXPECT_NO_THROW(groth16::check_witness_rows(handed));
  // The compact path: mostly bits, no rows until the prover forms them.
  r1cs::witness_cs compact = compiled.prove_witness_compact(compiled.prove_shape());
  ASSERT_TRUE(compact.is_deferred());
  EXPECT_EQ(compact.counts(), plain.counts());
  EXPECT_LT(compact.bytes(), handed.bytes() / 4) << c.description();
  // The rows' bound on values other than 0 and 1 holds for a satisfying witness.
  EXPECT_LE(compact.compact_aux().wide_count(), compiled.compiled().wide_aux_bound()) << c.description();
  EXPECT_TRUE(std::ranges::equal(compact.compact_aux().unpack(), plain.aux_assignment()));
  ASSERT_NE(compact.row_evaluator()->view(), nullptr);
  const test::emulated_rows_t emulated =
      test::emulate_form_rows(*compact.row_evaluator()->view(), compact.input_assignment(), compact.compact_aux());
  EXPECT_TRUE(std::ranges::equal(emulated.a, plain.a())) << c.description();
  EXPECT_TRUE(std::ranges::equal(emulated.b, plain.b())) << c.description();
  EXPECT_TRUE(std::ranges::equal(emulated.c, plain.c())) << c.description();
  EXPECT_EQ(emulated.first_unsatisfied, SIZE_MAX) << c.description();
  compact.materialize();
  EXPECT_TRUE(std::ranges::equal(compact.a(), plain.a()));
  EXPECT_TRUE(std::ranges::equal(compact.b(), plain.b()));
  EXPECT_EQ(words(compact.a_aux_density()), words(plain.a_aux_density()));
  EXPECT_EQ(words(compact.b_aux_density()), words(plain.b_aux_density()));
  EXPECT_EQ(words(compact.a_input_density()), words(plain.a_input_density()));
  EXPECT_EQ(words(compact.b_input_density()), words(plain.b_input_density()));
}

}  // namespace

TEST(SnapSynthesis, LayoutWindowsAreEachChallengesRandomBits) {
  const porep::snap_shape_t s = two_digest_shape();
  const circuits::porep_layout_t l = circuits::snap_layout(s);
  ASSERT_EQ(l.windows.size(), 60u);
  EXPECT_EQ(l.window_len, 5u);
  // Within a digest the slices are adjacent; the second digest's bits start
  // after its index, Poseidon and the first digest's 255 bits.
  for (unsigned ci = 1; ci < 50; ++ci) EXPECT_EQ(l.windows[ci], l.windows[ci - 1] + 5) << ci;
  EXPECT_GT(l.windows[50], l.windows[49] + 5 + 255 - 250);
  for (unsigned ci = 51; ci < 60; ++ci) EXPECT_EQ(l.windows[ci], l.windows[ci - 1] + 5) << ci;
  EXPECT_LT(l.windows[59] + 5, l.top.aux_end);
  EXPECT_EQ(l.circuit_rows(), snap_circuit(s).counts().num_constraints);
}

TEST(SnapSynthesis, CompiledWitnessMatchesPlainWitnessMode) {
  const std::uint64_t seed = test::seed("SnapSynthesis.CompiledWitnessMatchesPlainWitnessMode");
  expect_compiled_matches_plain(generated(snap_shape_for(kib), 0, seed));
  expect_compiled_matches_plain(generated(snap_shape_for(16 * kib), 1, seed));
}

TEST(SnapSynthesis, WindowsAcrossTwoDigests) {
  const std::uint64_t seed = test::seed("SnapSynthesis.WindowsAcrossTwoDigests");
  expect_compiled_matches_plain(generated(two_digest_shape(), 0, seed));
}

// The rows come from the matrices, not from the values: a corrupted opening
// is refused by the row check, at a row of its own challenge's block, on the
// whole witness and on the compact one alike.
TEST(SnapSynthesis, CorruptedOpeningFailsTheRowCheckInItsBlock) {
  const std::uint64_t seed = test::seed("SnapSynthesis.CorruptedOpeningFailsTheRowCheckInItsBlock");
  const auto s = snap_shape_for(2 * kib);
  const porep::snap_sector_t sector(s, seed);
  auto w = std::make_shared<circuits::snap_witness_t>(
      circuits::snap_witness_t{sector.public_inputs(0), sector.partition_proof(0)});
  w->proof.challenges[4].r_new.path.siblings[0][3] += fr_t::one();
  const circuits::snap_partition_circuit_t c(snap_circuit(s, w));
  const auto& l = c.compiled().layout();
  auto expect_block_4 = [&](const std::string& what) {
    const auto at = what.find("constraint ");
    ASSERT_NE(at, std::string::npos) << what;
    const std::size_t row = std::stoull(what.substr(at + 11));
    EXPECT_GE(row, l.at(4, {}).row) << what;
    EXPECT_LT(row, l.at(5, {}).row) << what;
  };
  r1cs::witness_cs whole = c.prove_witness(c.prove_shape());
  try {
    groth16::check_witness_rows(whole);
    FAIL() << "the corrupted sibling was not caught";
  } catch (const std::invalid_argument& e) {
    expect_block_4(e.what());
  }
  r1cs::witness_cs compact = c.prove_witness_compact(c.prove_shape());
  try {
    compact.materialize();
    groth16::check_witness_rows(compact);
    FAIL() << "the corrupted sibling was not caught in the compact witness";
  } catch (const std::invalid_argument& e) {
    expect_block_4(e.what());
  }
}

// The setup's columns from the compiled matrices (window variables scattered
// to their own block's digest bits) equal a key-generation pass's at random
// row values; one changed row value changes them.
TEST(SnapSynthesis, CompiledQapColumnsMatchKeygenPass) {
  const porep::snap_shape_t s = two_digest_shape();
  const circuits::snap_partition_circuit_t compiled{snap_circuit(s)};
  const circuits::circuit_model<snap_circuit> generic("snap", snap_circuit(s));
  const r1cs::shape_counts_t counts = compiled.prove_shape();
  ASSERT_EQ(counts, generic.prove_shape());
  const std::uint64_t seed = test::seed("SnapSynthesis.CompiledQapColumnsMatchKeygenPass");
  groth16::seeded_rng rng(seed);
  std::vector<fr_t> rows(counts.num_constraints);
  for (auto& v : rows) v = fr_t::random(rng);
  const r1cs::qap_columns_t want = generic.qap_columns(rows), got = compiled.qap_columns(rows);
  ASSERT_EQ(want.a.size(), got.a.size());
  for (std::size_t j = 0; j < got.a.size(); ++j) {
    if (!(got.a[j] == want.a[j] && got.b[j] == want.b[j] && got.c[j] == want.c[j])) {
      FAIL() << "column " << j << " differs (seed " << seed << ")";
    }
  }
  rows[counts.num_constraints / 3] += fr_t::one();
  EXPECT_NE(compiled.qap_columns(rows), got);
}

// 32 GiB: 81,049,499 rows as a top block and one challenge block of the 86,
// the windows spread over ten digests (9 challenges of 26 bits each).
TEST(SnapSynthesis, ThirtyTwoGiBCompilesToATopAndOneChallengeBlock) {
  const auto s = snap_shape_for(32 * gib);
  const circuits::snap_partition_circuit_t c{snap_circuit(s)};
  const auto& l = c.compiled().layout();
  EXPECT_EQ(l.circuit_rows(), 81'049'499u);
  EXPECT_EQ(l.challenges, 86u);
  EXPECT_EQ(l.window_len, 26u);
  // Nine slices per digest, adjacent; digests a fixed stride apart (index,
  // Poseidon, 255 bits); the tenth digest holds the last five challenges.
  for (unsigned ci = 0; ci < 86; ++ci) {
    if (ci % 9) {
      EXPECT_EQ(l.windows[ci], l.windows[ci - 1] + 26) << ci;
    }
  }
  const std::size_t stride = l.windows[9] - l.windows[0];
  EXPECT_GT(stride, 255u);
  for (unsigned d = 2; d < 10; ++d) EXPECT_EQ(l.windows[9 * d] - l.windows[9 * (d - 1)], stride) << d;
  EXPECT_EQ(c.prove_shape().num_constraints, 81'049'499u + 5);
  EXPECT_LT(c.compiled().bytes(), std::size_t(512) << 20);
}
