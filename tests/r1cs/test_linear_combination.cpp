// linear_combination_t: operators, inline-to-heap spill, evaluation against a naive sum.
#include <gtest/gtest.h>

#include <random>

#include "r1cs/r1cs.hpp"
#include "test_seed.hpp"

using namespace cuzk::r1cs;
using cuzk::ff::fr_t;

namespace {

std::vector<term_t> as_vector(const linear_combination_t& lc) { return {lc.begin(), lc.end()}; }

bool same_terms(const std::vector<term_t>& x, const std::vector<term_t>& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].var != y[i].var || x[i].coeff != y[i].coeff) return false;
  }
  return true;
}

}  // namespace

TEST(variable, packing_round_trips) {
  variable_t v = variable_t::aux(123456789);
  EXPECT_TRUE(v.is_aux());
  EXPECT_EQ(v.index(), 123456789u);
  EXPECT_TRUE(variable_t::one().is_one());
  EXPECT_TRUE(variable_t::input(0).is_one());
  EXPECT_FALSE(variable_t::aux(0).is_one());
  EXPECT_NE(variable_t::aux(5), variable_t::input(5));
}

TEST(linear_combination, operators_build_the_written_terms) {
  variable_t x = variable_t::aux(0), y = variable_t::aux(1), one = variable_t::one();
  fr_t five = fr_t::from_u64(5);
  linear_combination_t lc = linear_combination_t{} + x - y + five * one - five * x;
  std::vector<term_t> want = {{x, fr_t::one()}, {y, -fr_t::one()}, {one, five}, {x, -five}};
  EXPECT_TRUE(same_terms(as_vector(lc), want));

  linear_combination_t sum = lc + lc;
  EXPECT_EQ(sum.size(), 8u);  // spilled to the heap
  linear_combination_t diff = linear_combination_t(x) - lc;
  EXPECT_EQ(diff.size(), 5u);
  EXPECT_EQ(diff.terms()[1].coeff, -fr_t::one());
  EXPECT_EQ(diff.terms()[2].coeff, fr_t::one());
  EXPECT_EQ(diff.terms()[3].coeff, -five);
  EXPECT_EQ(diff.terms()[4].coeff, five);

  linear_combination_t scaled = fr_t::from_u64(2) * lc;
  for (size_t i = 0; i < lc.size(); ++i) EXPECT_EQ(scaled.terms()[i].coeff, lc.terms()[i].coeff.dbl());
}

TEST(linear_combination, spill_copy_move_and_evaluate_match_naive_sum) {
  std::mt19937_64 rng(cuzk::test::seed("linear_combination"));
  std::vector<fr_t> inputs(5), aux(20);
  inputs[0] = fr_t::one();
  for (size_t i = 1; i < inputs.size(); ++i) inputs[i] = fr_t::random(rng);
  for (auto& a : aux) a = fr_t::random(rng);
  for (size_t len : {0, 1, 3, 4, 5, 9, 40}) {
    linear_combination_t lc;
    std::vector<term_t> want;
    fr_t naive = fr_t::zero();
    for (size_t k = 0; k < len; ++k) {
      bool in = rng() % 3 == 0;
      variable_t v = in ? variable_t::input(rng() % inputs.size()) : variable_t::aux(rng() % aux.size());
      // Coefficient 1 and the ONE wire take shortcuts in evaluate; cover both.
      fr_t c = rng() % 4 == 0 ? fr_t::one() : fr_t::random(rng);
      lc = rng() % 2 ? lc + c * v : lc - (-c) * v;
      want.push_back({v, c});
      naive += c * (in ? inputs[v.index()] : aux[v.index()]);
    }
    EXPECT_TRUE(same_terms(as_vector(lc), want));
    EXPECT_EQ(lc.evaluate(inputs, aux), naive) << "len " << len;

    linear_combination_t copy = lc;
    EXPECT_TRUE(same_terms(as_vector(copy), as_vector(lc)));
    linear_combination_t moved = std::move(copy);
    EXPECT_TRUE(same_terms(as_vector(moved), as_vector(lc)));
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is documented empty
    copy = moved;
    copy += variable_t::one();
    EXPECT_EQ(copy.size(), len + 1);
    EXPECT_EQ(copy.evaluate(inputs, aux), naive + fr_t::one());
  }
}
