// Constraint, input and aux counts of the stacked PoRep partition circuit in
// shape mode, against FILECOIN_POREP.md §9: the 32 GiB totals measured on
// Filecoin's own circuit (130,278,869 / 328 / 130,169,893), upstream's
// stacked_circuit.rs test counts, and the derived totals for the other sizes.
#include <gtest/gtest.h>

#include "circuits/porep_circuit.hpp"
#include "circuits/porep_layout_t.hpp"
#include "porep/sector_params_t.hpp"
#include "r1cs/shape_cs.hpp"

using namespace cuzk;
using circuits::porep_circuit;
using circuits::porep_circuit_shape_t;
using circuits::porep_layout_t;

namespace {

porep_circuit_shape_t sector(uint64_t bytes) {
  return porep_circuit_shape_t::for_sector(porep::sector_params_for(bytes));
}

struct expected_t {
  size_t circuit_rows, inputs, aux;
};

void expect_layout(const porep_circuit_shape_t& shape, expected_t e) {
  const auto l = porep_layout_t::measure(porep_circuit(shape));
  EXPECT_EQ(l.circuit_rows(), e.circuit_rows) << shape.name;
  EXPECT_EQ(l.num_inputs(), e.inputs) << shape.name;
  EXPECT_EQ(l.num_aux(), e.aux) << shape.name;
  EXPECT_EQ(l.num_constraints(), e.circuit_rows + e.inputs) << shape.name;
}

// The whole circuit in shape mode, every challenge block run.
r1cs::shape_counts_t full_shape(const porep_circuit_shape_t& shape) {
  r1cs::shape_cs cs;
  porep_circuit(shape).synthesize(cs);
  return cs.counts();
}

constexpr uint64_t kib = 1024, mib = kib * kib, gib = mib * kib;

}  // namespace

TEST(PorepShape, TwoKiBMatchesDerivedTotals) {
  expect_layout(sector(2 * kib), {2'687'921, 40, 2'685'673});
  // The per-block layout and a full synthesis count the same.
  EXPECT_EQ(full_shape(sector(2 * kib)), (r1cs::shape_counts_t{2'687'921, 40, 2'685'673}));
}

TEST(PorepShape, EightMiBAnd512MiBMatchDerivedTotals) {
  expect_layout(sector(8 * mib), {3'844'929, 40, 3'842'449});
  expect_layout(sector(512 * mib), {4'423'433, 40, 4'420'837});
}

TEST(PorepShape, ThirtyTwoGiBMatchesFilecoin) {
  const auto l = porep_layout_t::measure(porep_circuit(sector(32 * gib)));
  EXPECT_EQ(l.num_constraints(), 130'278'869u);  // circuit rows + input rows, as bellperson's prover counts
  EXPECT_EQ(l.circuit_rows(), 130'278'541u);
  EXPECT_EQ(l.num_inputs(), 328u);
  EXPECT_EQ(l.num_aux(), 130'169'893u);
  // §8's per-challenge table: block sizes and step offsets.
  EXPECT_EQ(l.top.row_end, 571u);
  EXPECT_EQ(l.top.aux_end, 571u);
  EXPECT_EQ(l.block_rows, 7'237'665u);
  EXPECT_EQ(l.block_aux, 7'231'629u);
  EXPECT_EQ(l.block_inputs, 18u);
  EXPECT_EQ(l.tree_d.row, 0u);
  EXPECT_EQ(l.tree_d.aux, 1u);
  EXPECT_EQ(l.parents.row, 1'361'462u);
  EXPECT_EQ(l.parents.aux, 1'360'051u);
  EXPECT_EQ(l.challenge.row, 1'444'062u);
  EXPECT_EQ(l.challenge.aux, 1'443'757u);
  ASSERT_EQ(l.labels.size(), 11u);
  EXPECT_EQ(l.labels[0].row, 1'444'127u);
  EXPECT_EQ(l.labels[0].aux, 1'443'821u);
  EXPECT_EQ(l.labels[1].row, 1'967'932u);
  EXPECT_EQ(l.labels[1].aux, 1'967'100u);
  EXPECT_EQ(l.labels[1].row_end - l.labels[1].row, 525'853u);
  EXPECT_EQ(l.tail.row, 7'226'462u);
  EXPECT_EQ(l.tail.aux, 7'220'290u);
}

TEST(PorepShape, SixtyFourGiBMatchesDerivedTotals) {
  const auto l = porep_layout_t::measure(porep_circuit(sector(64 * gib)));
  EXPECT_EQ(l.circuit_rows(), 131'185'849u);
  EXPECT_EQ(l.num_constraints(), 131'186'177u);
  EXPECT_EQ(l.num_inputs(), 328u);
  EXPECT_EQ(l.num_aux(), 131'076'643u);
  EXPECT_EQ(l.block_rows, 7'288'071u);
}

// rust-fil-proofs storage-proofs-porep/tests/stacked_circuit.rs: 2 layers, 1
// challenge, 22 inputs. The 8-4-0 and 8-4-2 shapes need arity-4 Poseidon and
// insert_4, which no production sector uses and the gadgets do not provide.
TEST(PorepShape, UpstreamStackedCircuitTestShapes) {
  const auto disk = porep_circuit_shape_t::test_shape(2, 0, 0);
  EXPECT_EQ(full_shape(disk).num_constraints, 1'206'212u);
  EXPECT_EQ(full_shape(disk).num_inputs, 22u);
  const auto oct = porep_circuit_shape_t::test_shape(8, 0, 0);
  EXPECT_EQ(full_shape(oct).num_constraints, 1'199'620u);
  EXPECT_EQ(full_shape(oct).num_inputs, 22u);
  EXPECT_THROW(porep_circuit_shape_t::test_shape(8, 4, 0), std::invalid_argument);
}
