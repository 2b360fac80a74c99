// Poseidon gadget against the native hash on random inputs, with neptune's
// constraint counts (circuit.rs test_poseidon_hash: 311, 377, 505; 598 for
// arity 11 from FILECOIN_POREP.md §3.2, matching the same formula).
#include <gtest/gtest.h>

#include <random>

#include "gadget_test_util.hpp"
#include "test_seed.hpp"

using namespace cuzk::gadgets;
using namespace cuzk::gadgets::test_util;
using cuzk::ff::fr_t;
using cuzk::r1cs::test_cs;

TEST(PoseidonGadget, MatchesNativeWithNeptuneCounts) {
  std::mt19937_64 rng(cuzk::test::seed("PoseidonGadget.MatchesNativeWithNeptuneCounts"));
  const std::pair<std::size_t, std::size_t> cases[] = {{2, 311}, {4, 377}, {8, 505}, {11, 598}};
  for (auto [arity, rows] : cases) {
    for (int k = 0; k < 2; ++k) {
      test_cs cs;
      std::vector<fr_t> in;
      std::vector<allocated_num_t> nums;
      for (std::size_t i = 0; i < arity; ++i) {
        in.push_back(k == 0 ? fr_t::from_u64(i) : fr_t::random(rng));
        nums.push_back(alloc_num(cs, in.back(), "data " + std::to_string(i)));
      }
      std::size_t before = cs.num_constraints(), aux_before = cs.num_aux();
      allocated_num_t out = poseidon_hash_gadget(cs, std::span<const allocated_num_t>(nums));
      EXPECT_EQ(cs.num_constraints() - before, rows) << "arity " << arity;
      EXPECT_EQ(cs.num_aux() - aux_before, rows) << "arity " << arity;
      EXPECT_EQ(poseidon_gadget_constraints(poseidon_params(arity)), rows);
      EXPECT_EQ(*out.value, poseidon_hash(in)) << "arity " << arity;
      ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
      EXPECT_EQ(cs.value(out.var), *out.value);
      if (k == 1) {
        expect_corruption_caught(cs, out.var, "hash result");
        expect_corruption_caught(cs, nums[0].var, "first round");
      }
    }
  }
}

TEST(PoseidonGadget, ShapeModeCounts) {
  for (std::size_t arity : {2u, 8u, 11u}) {
    cuzk::r1cs::shape_cs shape;
    std::vector<allocated_num_t> nums;
    for (std::size_t i = 0; i < arity; ++i) nums.push_back(allocated_num_t::alloc(shape, std::nullopt));
    poseidon_hash_gadget(shape, std::span<const allocated_num_t>(nums));
    EXPECT_EQ(shape.num_constraints(), poseidon_gadget_constraints(poseidon_params(arity)));
  }
  test_cs cs;
  std::vector<allocated_num_t> three(3);
  EXPECT_THROW(poseidon_hash_gadget(cs, poseidon_params(2), std::span<const allocated_num_t>(three)),
               std::invalid_argument);
}
