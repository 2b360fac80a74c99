// The fast PoRep synthesis paths against the plain sequential witness mode:
// slot-parallel synthesis and the compiled path must give bit-identical a, b,
// c, assignments and A/B densities (2 KiB: two challenge blocks, so block
// offsets and cross-block density words are exercised). The setup's columns
// from the compiled matrices must equal a key-generation pass's.
#include <gtest/gtest.h>

#include <algorithm>

#include "circuits/circuit_model.hpp"
#include "circuits/porep_circuit.hpp"
#include "circuits/porep_compiled_t.hpp"
#include "circuits/porep_layout_t.hpp"
#include "circuits/porep_partition_circuit_t.hpp"
#include "circuits/porep_random_witness.hpp"
#include "circuits/porep_synthesis.hpp"
#include "circuits/porep_synthesizer_t.hpp"
#include "groth16/rng.hpp"
#include "porep/sector_params_t.hpp"
#include "r1cs/witness_cs.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using circuits::porep_circuit;

namespace {

std::vector<uint64_t> words(const r1cs::density_tracker& d) { return {d.words().begin(), d.words().end()}; }

void expect_same(const r1cs::witness_cs& plain, const circuits::porep_witness_t& w, const char* what) {
  ASSERT_EQ(w.a.size(), plain.num_constraints()) << what;
  EXPECT_TRUE(std::ranges::equal(w.inputs, plain.input_assignment())) << what;
  EXPECT_TRUE(std::ranges::equal(w.aux, plain.aux_assignment())) << what;
  for (size_t i = 0; i < w.a.size(); ++i) {
    if (!(w.a[i] == plain.a()[i] && w.b[i] == plain.b()[i] && w.c[i] == plain.c()[i])) {
      FAIL() << what << ": row " << i << " differs";
    }
  }
  EXPECT_EQ(w.a_aux_density, words(plain.a_aux_density())) << what;
  EXPECT_EQ(w.b_aux_density, words(plain.b_aux_density())) << what;
  EXPECT_EQ(w.a_input_density, words(plain.a_input_density())) << what;
  EXPECT_EQ(w.b_input_density, words(plain.b_input_density())) << what;
}

}  // namespace

TEST(PorepSynthesis, FastAndCompiledMatchPlainWitnessMode) {
  const auto shape = circuits::porep_circuit_shape_t::for_sector(porep::sector_params_for(2048));
  const porep_circuit circuit(shape, circuits::random_porep_witness(shape, test::seed("PorepSynthesis")));
  const auto layout = circuits::porep_layout_t::measure(circuit);

  r1cs::witness_cs plain;
  plain.reserve({layout.num_constraints(), layout.num_inputs(), layout.num_aux()});
  circuit.synthesize(plain);
  plain.add_input_constraints();
  ASSERT_EQ(plain.counts(), (r1cs::shape_counts_t{layout.num_constraints(), layout.num_inputs(), layout.num_aux()}));

  expect_same(plain, circuits::synthesize_porep_witness(circuit, layout), "slot-parallel");
  const auto compiled = circuits::porep_compiled_t::compile(circuit, layout);
  auto fast = circuits::synthesize_porep_compiled(circuit, compiled);
  expect_same(plain, fast, "compiled");

  // Handed to the prover's witness type: the same witness, densities counted.
  const r1cs::witness_cs handed = std::move(fast).into_witness_cs();
  EXPECT_EQ(handed.counts(), plain.counts());
  EXPECT_TRUE(std::ranges::equal(handed.c(), plain.c()));
  EXPECT_TRUE(std::ranges::equal(handed.aux_assignment(), plain.aux_assignment()));
  EXPECT_EQ(handed.a_aux_density(), plain.a_aux_density());
  EXPECT_EQ(handed.b_aux_density(), plain.b_aux_density());
  EXPECT_EQ(handed.a_input_density(), plain.a_input_density());
  EXPECT_EQ(handed.b_input_density(), plain.b_input_density());
  EXPECT_EQ(handed.b_aux_density().total_density(), plain.b_aux_density().total_density());
}

TEST(PorepSynthesis, WitnessPartsAreCheckedWhenHandedOver) {
  EXPECT_THROW(r1cs::density_tracker::from_words({1, 2}, 64), std::invalid_argument);  // too many words
  EXPECT_THROW(r1cs::density_tracker::from_words({uint64_t(1) << 5}, 5), std::invalid_argument);  // bit past size
  EXPECT_EQ(r1cs::density_tracker::from_words({0b1011}, 5).total_density(), 3u);
  r1cs::witness_cs::parts_t p;
  p.inputs.assign(1, ff::fr_t::one());
  p.a.assign(2, ff::fr_t::one());
  p.b.assign(2, ff::fr_t::one());
  p.c.assign(1, ff::fr_t::one());  // one row short
  p.a_input_density = p.b_input_density = r1cs::density_tracker::from_words({1}, 1);
  EXPECT_THROW(r1cs::witness_cs::from_parts(std::move(p)), std::invalid_argument);
}

TEST(PorepSynthesis, RejectsShapeMismatch) {
  const auto shape = circuits::porep_circuit_shape_t::for_sector(porep::sector_params_for(2048));
  auto w = std::make_shared<circuits::porep_partition_witness_t>(*circuits::random_porep_witness(shape, 1));
  w->challenges.pop_back();
  EXPECT_THROW(porep_circuit(shape, w), std::invalid_argument);
  EXPECT_THROW(circuits::synthesize_porep_witness(porep_circuit(shape), circuits::porep_layout_t::measure(porep_circuit(shape))),
               std::invalid_argument);
}

// Random row values (not Lagrange values: the map is linear in them, and
// random values make every row count), against keygen_cs's transposed
// columns over the full 2 KiB circuit (two challenge blocks, so the shared
// top-block variables are summed across tasks).
TEST(PorepSynthesis, CompiledQapColumnsMatchKeygenPass) {
  const auto sector = porep::sector_params_for(2048);
  const auto shape = circuits::porep_circuit_shape_t::for_sector(sector);
  const circuits::circuit_model<porep_circuit> generic("porep", porep_circuit(shape));
  const circuits::porep_partition_circuit_t compiled(circuits::porep_synthesizer_t::for_sector(sector));
  const r1cs::shape_counts_t counts = compiled.prove_shape();
  ASSERT_EQ(counts, generic.prove_shape());

  const uint64_t seed = test::seed("PorepQapColumns");
  groth16::seeded_rng rng(seed);
  std::vector<ff::fr_t> rows(counts.num_constraints + 3);  // extra values are ignored
  for (auto& v : rows) v = ff::fr_t::random(rng);
  const r1cs::qap_columns_t want = generic.qap_columns(rows), got = compiled.qap_columns(rows);
  ASSERT_EQ(got.a.size(), counts.num_inputs + counts.num_aux);
  ASSERT_EQ(want.a.size(), got.a.size());
  for (size_t j = 0; j < got.a.size(); ++j) {
    if (!(got.a[j] == want.a[j] && got.b[j] == want.b[j] && got.c[j] == want.c[j])) {
      FAIL() << "column " << j << " differs (seed " << seed << ")";
    }
  }
  // A changed row value must show in the columns of that row's variables.
  rows[counts.num_constraints / 2] += ff::fr_t::one();
  EXPECT_NE(compiled.qap_columns(rows), got);

  rows.resize(counts.num_constraints - 1);
  EXPECT_THROW((void)compiled.qap_columns(rows), std::invalid_argument);
  EXPECT_THROW((void)generic.qap_columns(rows), std::invalid_argument);
}
