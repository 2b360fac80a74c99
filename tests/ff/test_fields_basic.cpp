// Algebraic properties of Fp, Fr and Fp2 over seeded random values and edge cases.
#include <gtest/gtest.h>

#include <random>

#include "ff/ff.hpp"
#include "test_seed.hpp"

using namespace cuzk::ff;

template <class F>
class field_props : public ::testing::Test {};
using field_types = ::testing::Types<fp_t, fr_t>;
TYPED_TEST_SUITE(field_props, field_types);

TYPED_TEST(field_props, ring_laws_and_inverse) {
  using F = TypeParam;
  std::mt19937_64 rng(cuzk::test::seed("field_props"));
  for (int i = 0; i < 200; ++i) {
    F a = F::random(rng), b = F::random(rng), c = F::random(rng);
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ((a - b) + b, a);
    EXPECT_EQ(a + (-a), F::zero());
    EXPECT_EQ(a.sqr(), a * a);
    if (!a.is_zero()) {
      EXPECT_EQ(a * a.inverse(), F::one());
    }
    auto s = a.sqr().sqrt();
    ASSERT_TRUE(s.has_value());
    EXPECT_TRUE(*s == a || *s == -a);
  }
}

TYPED_TEST(field_props, edge_values_round_trip) {
  using F = TypeParam;
  auto pm1 = F::modulus;
  pm1[0] -= 1;
  auto x = F::from_canonical(pm1);
  ASSERT_TRUE(x.has_value());
  EXPECT_EQ(*x + F::one(), F::zero());
  EXPECT_EQ(x->to_canonical(), pm1);
  EXPECT_FALSE(F::from_canonical(F::modulus).has_value());
  EXPECT_EQ(F::from_hex(x->to_hex()), x);
}

TEST(fr, root_of_unity_has_exact_order) {
  fr_t w = fr_root_of_unity(32);
  fr_t t = w;
  for (int i = 0; i < 31; ++i) t = t.sqr();
  EXPECT_EQ(t, -fr_t::one());
  EXPECT_EQ(t.sqr(), fr_t::one());
}

TEST(fp2, field_laws) {
  std::mt19937_64 rng(cuzk::test::seed("fp2"));
  for (int i = 0; i < 100; ++i) {
    fp2_t a = fp2_t::random(rng), b = fp2_t::random(rng);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ(a.sqr(), a * a);
    EXPECT_EQ(a * a.inverse(), fp2_t::one());
    auto s = a.sqr().sqrt();
    ASSERT_TRUE(s.has_value());
    EXPECT_TRUE(*s == a || *s == -a);
  }
}

TEST(fr, decimal_round_trip) {
  std::mt19937_64 rng(cuzk::test::seed("decimal"));
  EXPECT_EQ(fr_t::zero().to_decimal(), "0");
  EXPECT_EQ(fr_t::from_u64(1234567890123).to_decimal(), "1234567890123");
  // r - 1, the largest scalar (decimal from the BLS12-381 specification).
  auto rm1 = fr_t::from_decimal("52435875175126190479447740508185965837690552500527637822603658699938581184512");
  ASSERT_TRUE(rm1.has_value());
  EXPECT_EQ(*rm1 + fr_t::one(), fr_t::zero());
  EXPECT_FALSE(fr_t::from_decimal("52435875175126190479447740508185965837690552500527637822603658699938581184513"));
  EXPECT_FALSE(fr_t::from_decimal("12a"));
  EXPECT_FALSE(fr_t::from_decimal(""));
  for (int i = 0; i < 50; ++i) {
    fr_t a = fr_t::random(rng);
    EXPECT_EQ(fr_t::from_decimal(a.to_decimal()), a);
  }
}

TEST(fr, hex_rejects_empty_and_bare_prefix) {
  EXPECT_FALSE(fr_t::from_hex(""));
  EXPECT_FALSE(fr_t::from_hex("0x"));
  EXPECT_FALSE(fr_t::from_hex("0xg1"));
  EXPECT_EQ(fr_t::from_hex("0x0"), fr_t::zero());
  EXPECT_EQ(fr_t::from_hex("0X2a"), fr_t::from_u64(42));
}
