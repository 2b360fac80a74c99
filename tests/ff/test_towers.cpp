// Fp6 and Fp12: field laws on seeded random values, Frobenius maps against
// x^(p^k) by plain exponentiation, sparse and cyclotomic shortcuts against the
// general operations, and noble's known answers (tests/kat/fp12.json).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "ff/ff.hpp"
#include "test_seed.hpp"

using namespace cuzk::ff;

namespace {

template <class F>
void expect_field_laws(std::mt19937_64& rng, int n) {
  for (int i = 0; i < n; ++i) {
    F a = F::random(rng), b = F::random(rng), c = F::random(rng);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ((a - b) + b, a);
    EXPECT_EQ(a + (-a), F::zero());
    EXPECT_EQ(a.sqr(), a * a);
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ(a * F::one(), a);
    EXPECT_TRUE((a * a.inverse()).is_one());
  }
  EXPECT_TRUE(F::one().inverse().is_one());
  EXPECT_TRUE(F::zero().is_zero());
  EXPECT_FALSE(F::one().is_zero());
}

// x^(p^k) by square-and-multiply with the exponent p, k times.
template <class F>
F pow_p(F x, size_t k) {
  for (size_t i = 0; i < k; ++i) x = x.pow(fp_t::modulus);
  return x;
}

fp2_t fp2_from_json(const nlohmann::json& j) {
  return {*fp_t::from_hex(j.at("c0").get<std::string>()), *fp_t::from_hex(j.at("c1").get<std::string>())};
}
fp6_t fp6_from_json(const nlohmann::json& j) {
  return {fp2_from_json(j.at("c0")), fp2_from_json(j.at("c1")), fp2_from_json(j.at("c2"))};
}
fp12_t fp12_from_json(const nlohmann::json& j) { return {fp6_from_json(j.at("c0")), fp6_from_json(j.at("c1"))}; }

}  // namespace

TEST(fp6, field_laws) {
  std::mt19937_64 rng(cuzk::test::seed("fp6"));
  expect_field_laws<fp6_t>(rng, 50);
}

TEST(fp12, field_laws) {
  std::mt19937_64 rng(cuzk::test::seed("fp12"));
  expect_field_laws<fp12_t>(rng, 30);
}

TEST(fp6, nonresidue_and_sparse_products) {
  std::mt19937_64 rng(cuzk::test::seed("fp6_sparse"));
  const fp6_t v{fp2_t::zero(), fp2_t::one(), fp2_t::zero()};
  // v^3 = u + 1
  EXPECT_EQ(v * v * v, (fp6_t{fp2_t::one().mul_by_nonresidue(), fp2_t::zero(), fp2_t::zero()}));
  for (int i = 0; i < 30; ++i) {
    fp6_t a = fp6_t::random(rng);
    fp2_t b0 = fp2_t::random(rng), b1 = fp2_t::random(rng);
    EXPECT_EQ(a.mul_by_nonresidue(), a * v);
    EXPECT_EQ(a.mul_by_01(b0, b1), a * fp6_t({b0, b1, fp2_t::zero()}));
    EXPECT_EQ(a.mul_by_1(b1), a * fp6_t({fp2_t::zero(), b1, fp2_t::zero()}));
    EXPECT_EQ(a * b0, a * fp6_t({b0, fp2_t::zero(), fp2_t::zero()}));
  }
}

TEST(fp12, tower_relation_and_mul_by_014) {
  std::mt19937_64 rng(cuzk::test::seed("fp12_sparse"));
  const fp12_t w{fp6_t::zero(), fp6_t::one()};
  // w^2 = v
  EXPECT_EQ(w.sqr(), (fp12_t{fp6_t{fp2_t::zero(), fp2_t::one(), fp2_t::zero()}, fp6_t::zero()}));
  for (int i = 0; i < 30; ++i) {
    fp12_t a = fp12_t::random(rng);
    fp2_t o0 = fp2_t::random(rng), o1 = fp2_t::random(rng), o4 = fp2_t::random(rng);
    fp12_t sparse{{o0, o1, fp2_t::zero()}, {fp2_t::zero(), o4, fp2_t::zero()}};
    EXPECT_EQ(a.mul_by_014(o0, o1, o4), a * sparse);
    EXPECT_EQ(a.conj() * a, (a.conj() * a).conj());  // the norm to Fp6 is fixed by conj
  }
}

TEST(fp6, frobenius_is_pow_p) {
  std::mt19937_64 rng(cuzk::test::seed("fp6_frobenius"));
  for (int i = 0; i < 3; ++i) {
    fp6_t a = fp6_t::random(rng);
    fp6_t ap = a.pow(fp_t::modulus);
    EXPECT_EQ(a.frobenius_map(1), ap);
    EXPECT_EQ(a.frobenius_map(0), a);
    fp6_t it = a;
    for (size_t k = 1; k <= 6; ++k) {
      it = it.frobenius_map(1);
      EXPECT_EQ(a.frobenius_map(k), it) << "k=" << k;
    }
    EXPECT_EQ(it, a);  // x^(p^6) = x in Fp6
    EXPECT_EQ(a.frobenius_map(2), pow_p(a, 2));
  }
}

TEST(fp12, frobenius_is_pow_p) {
  std::mt19937_64 rng(cuzk::test::seed("fp12_frobenius"));
  for (int i = 0; i < 2; ++i) {
    fp12_t a = fp12_t::random(rng);
    EXPECT_EQ(a.frobenius_map(1), a.pow(fp_t::modulus));
    EXPECT_EQ(a.frobenius_map(6), a.conj());
    fp12_t it = a;
    for (size_t k = 1; k <= 12; ++k) {
      it = it.frobenius_map(1);
      EXPECT_EQ(a.frobenius_map(k), it) << "k=" << k;
    }
    EXPECT_EQ(it, a);  // x^(p^12) = x
    EXPECT_EQ(a.frobenius_map(3), pow_p(a, 3));
  }
}

TEST(fp12, cyclotomic_sqr_matches_sqr_in_subgroup) {
  std::mt19937_64 rng(cuzk::test::seed("fp12_cyclotomic"));
  for (int i = 0; i < 20; ++i) {
    fp12_t a = fp12_t::random(rng);
    // a^((p^6 - 1)(p^2 + 1)) lies in the cyclotomic subgroup.
    fp12_t t = a.conj() * a.inverse();
    t = t.frobenius_map(2) * t;
    EXPECT_EQ(t.cyclotomic_sqr(), t.sqr());
    EXPECT_EQ(t.cyclotomic_sqr().cyclotomic_sqr(), t.sqr().sqr());
    EXPECT_EQ(t * t.conj(), fp12_t::one());
    limbs_t<2> e{uint64_t(rng()), uint64_t(rng())};
    EXPECT_EQ(t.cyclotomic_pow(e), t.pow(e));
  }
}

TEST(fp12, noble_known_answers) {
  std::ifstream in(cuzk::test::source_path("tests/kat/fp12.json"));
  ASSERT_TRUE(in) << "missing tests/kat/fp12.json";
  auto kat = nlohmann::json::parse(in);
  size_t n = 0;
  for (const auto& c : kat.at("cases")) {
    const std::string op = c.at("op");
    if (op == "final_exp") continue;  // tests/pairing
    fp12_t a = fp12_from_json(c.at("a"));
    fp12_t out = fp12_from_json(c.at("out"));
    fp12_t got;
    if (op == "mul") got = a * fp12_from_json(c.at("b"));
    else if (op == "sqr") got = a.sqr();
    else if (op == "inv") got = a.inverse();
    else if (op == "conjugate") got = a.conj();
    else if (op == "frobenius_map") got = a.frobenius_map(c.at("power").get<size_t>());
    else FAIL() << "unknown op " << op;
    EXPECT_EQ(got, out) << op << " case " << n;
    ++n;
  }
  EXPECT_GE(n, 50u);
}
