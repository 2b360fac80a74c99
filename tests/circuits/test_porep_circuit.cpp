// The stacked PoRep circuit on real 2 KiB inputs: a sector replicated by
// porep-native's generator (SDR labels, Trees D, C, R) is accepted, the
// public inputs the circuit allocates are the ones §8 lists, and one
// corrupted label byte, path element or parent index is caught by the
// constraint that should catch it, named.
#include <gtest/gtest.h>

#include <array>

#include "circuits/porep_check.hpp"
#include "circuits/porep_circuit.hpp"
#include "circuits/porep_layout_t.hpp"
#include "circuits/porep_synthesis.hpp"
#include "circuits/porep_vanilla_witness.hpp"
#include "porep/vanilla_generator.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using circuits::porep_circuit;

namespace {

struct fixture_t {
  porep::vanilla_proof_t vanilla;
  circuits::porep_circuit_shape_t shape;
};

const fixture_t& two_kib() {
  static const fixture_t f = [] {
    const auto p = porep::sector_params_for(2048);
    fixture_t f{porep::generate_vanilla(p, test::seed("porep 2KiB sector")), {}};
    f.shape = circuits::porep_circuit_shape_t::for_sector(p);
    return f;
  }();
  return f;
}

circuits::porep_partition_witness_t witness() { return *circuits::porep_witness_from_vanilla(two_kib().vanilla, 0); }

std::string first_failure(const circuits::porep_partition_witness_t& w) {
  porep_circuit c(two_kib().shape, std::make_shared<const circuits::porep_partition_witness_t>(w));
  auto bad = circuits::porep_which_is_unsatisfied(c);
  return bad ? bad->name : "";
}

}  // namespace

TEST(PorepCircuit, ValidTwoKiBSectorSatisfiesEveryConstraint) {
  const porep_circuit c(two_kib().shape, std::make_shared<const circuits::porep_partition_witness_t>(witness()));
  auto bad = circuits::porep_which_is_unsatisfied(c);
  EXPECT_FALSE(bad) << "row " << bad->row << ": " << bad->name;
  // The inputs the circuit allocates (packed path bits, inputized values) are
  // the values §8 says the verifier computes from the challenges alone.
  const auto w = circuits::synthesize_porep_witness(c, circuits::porep_layout_t::measure(c));
  const auto expected = c.public_inputs();
  ASSERT_EQ(w.inputs.size(), expected.size() + 1);
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_TRUE(w.inputs[i + 1] == expected[i]) << "input " << i + 1;
}

TEST(PorepCircuit, CorruptedLabelByteIsNamed) {
  auto w = witness();
  std::array<uint8_t, 32> bytes;
  w.challenges[1].drg_parents[2].rows[0].to_bytes_le(bytes);
  bytes[5] ^= 0x10;
  w.challenges[1].drg_parents[2].rows[0] = *ff::fr_t::from_bytes_le(bytes);
  // The parent's column no longer hashes to a leaf of Tree C under comm_c.
  EXPECT_EQ(first_failure(w), "challenge_1_parents/drg_2/column_inclusion/enforce root is correct");
}

TEST(PorepCircuit, CorruptedPathElementIsNamed) {
  auto w = witness();
  w.challenges[0].d_siblings[3] += ff::fr_t::one();
  EXPECT_EQ(first_failure(w), "challenge_0_tree_d/inclusion/enforce root is correct");
  w = witness();
  w.challenges[0].r_siblings[4] += ff::fr_t::one();
  EXPECT_EQ(first_failure(w), "challenge_0_tail/tree_r_inclusion/enforce root is correct");
}

TEST(PorepCircuit, CorruptedParentIsNamed) {
  auto w = witness();
  auto& p = w.challenges[0].exp_parents[5];
  p.node = (p.node + 1) % two_kib().shape.nodes;
  // The column opened is no longer the one at that leaf of Tree C.
  EXPECT_EQ(first_failure(w), "challenge_0_parents/exp_5/column_inclusion/enforce root is correct");
}

TEST(PorepCircuit, RejectsWitnessOfWrongShape) {
  auto w = witness();
  w.challenges[0].d_siblings.pop_back();
  EXPECT_THROW(porep_circuit(two_kib().shape, std::make_shared<const circuits::porep_partition_witness_t>(w)),
               std::invalid_argument);
}
