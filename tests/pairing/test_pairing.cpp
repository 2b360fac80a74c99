// The optimal ate pairing: exactness of the final exponentiation against a plain
// pow by (p^12 - 1)/r, bilinearity and non-degeneracy on seeded random points,
// infinity, multi-Miller products, and noble's known answers (tests/kat).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "ec/ec.hpp"
#include "pairing/pairing.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using ec::g1_affine_t;
using ec::g2_affine_t;
using ff::fp12_t;
using ff::fp2_t;
using ff::fp6_t;
using ff::fp_t;
using ff::fr_t;
using pairing::affine_term_t;
using pairing::prepared_term_t;

namespace {

// Variable-length schoolbook integers, only for deriving the exponent.
using big_t = std::vector<uint64_t>;

big_t big_mul(const big_t& a, const big_t& b) {
  big_t r(a.size() + b.size(), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    uint64_t c = 0;
    for (size_t j = 0; j < b.size(); ++j) r[i + j] = ff::mac(a[i], b[j], r[i + j], c);
    r[i + b.size()] = c;
  }
  return r;
}

// (p^12 - 1) / r by binary long division; fails the test unless exact.
constexpr size_t exp_limbs = 68;
ff::limbs_t<exp_limbs> final_exp_exponent() {
  big_t p(fp_t::modulus.begin(), fp_t::modulus.end());
  big_t n{1};
  for (int i = 0; i < 12; ++i) n = big_mul(n, p);
  n[0] -= 1;  // p^12 is odd
  ff::limbs_t<5> r{}, rem{};
  for (size_t i = 0; i < 4; ++i) r[i] = fr_t::modulus[i];
  big_t q(n.size(), 0);
  for (size_t i = 64 * n.size(); i-- > 0;) {
    uint64_t top = rem[4] >> 63;
    for (size_t k = 5; k-- > 1;) rem[k] = (rem[k] << 1) | (rem[k - 1] >> 63);
    rem[0] = (rem[0] << 1) | ((n[i / 64] >> (i % 64)) & 1);
    EXPECT_EQ(top, 0u);
    if (!ff::big_less(rem, r)) {
      ff::big_sub(rem, r);
      q[i / 64] |= uint64_t(1) << (i % 64);
    }
  }
  EXPECT_TRUE(ff::big_is_zero(rem)) << "r does not divide p^12 - 1";
  ff::limbs_t<exp_limbs> e{};
  for (size_t i = 0; i < q.size(); ++i) {
    if (i < exp_limbs) e[i] = q[i];
    else EXPECT_EQ(q[i], 0u);
  }
  return e;
}

fp_t fp_hex(const nlohmann::json& j) { return *fp_t::from_hex(j.get<std::string>()); }
fp2_t fp2_json(const nlohmann::json& j) { return {fp_hex(j.at("c0")), fp_hex(j.at("c1"))}; }
fp6_t fp6_json(const nlohmann::json& j) { return {fp2_json(j.at("c0")), fp2_json(j.at("c1")), fp2_json(j.at("c2"))}; }
fp12_t fp12_json(const nlohmann::json& j) { return {fp6_json(j.at("c0")), fp6_json(j.at("c1"))}; }

nlohmann::json load_kat(const char* name) {
  std::ifstream in(test::source_path(std::string("tests/kat/") + name));
  EXPECT_TRUE(in) << "missing tests/kat/" << name;
  return in ? nlohmann::json::parse(in) : nlohmann::json{};
}

g1_affine_t g1_mul(const fr_t& k) { return ec::g1_jacobian_t::from_affine(ec::g1_generator()).mul(k).to_affine(); }
g2_affine_t g2_mul(const fr_t& k) { return ec::g2_jacobian_t::from_affine(ec::g2_generator()).mul(k).to_affine(); }

}  // namespace

TEST(pairing, final_exponentiation_is_exact_power) {
  std::mt19937_64 rng(test::seed("final_exp_exact"));
  const auto e = final_exp_exponent();
  auto kat = load_kat("fp12.json");
  if (kat.contains("final_exp_exponent")) {
    const std::string want = kat["final_exp_exponent"];
    std::string got;
    for (size_t i = exp_limbs; i-- > 0;) {
      char buf[17];
      std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(e[i]));
      got += buf;
    }
    got.erase(0, got.find_first_not_of('0'));
    EXPECT_EQ(got, want);
  }
  std::vector<fp12_t> inputs{fp12_t::random(rng),
                             pairing::miller_loop(g1_mul(fr_t::random(rng)), ec::g2_generator())};
  for (const fp12_t& f : inputs) {
    fp12_t want = f.pow(e);
    EXPECT_EQ(pairing::final_exponentiation(f), want);
    EXPECT_EQ(pairing::final_exponentiation_cube(f), want.sqr() * want);
  }
}

TEST(pairing, generators_nondegenerate_and_order_r) {
  fp12_t g = pairing::pairing(ec::g1_generator(), ec::g2_generator());
  EXPECT_FALSE(g.is_one());
  EXPECT_TRUE(g.pow(fr_t::modulus).is_one());
  // blst's published value of e(G1, G2) begins with c0.c0.c0 = 1250ebd8...89b6.
  fp12_t blst = pairing::final_exponentiation_cube(pairing::miller_loop(ec::g1_generator(), ec::g2_generator()));
  EXPECT_TRUE(blst.c0.c0.c0.to_hex().starts_with("1250ebd8")) << blst.c0.c0.c0.to_hex();
  EXPECT_EQ(blst, g.sqr() * g);
}

TEST(pairing, bilinearity) {
  std::mt19937_64 rng(test::seed("pairing_bilinear"));
  const g1_affine_t P = ec::g1_generator();
  const g2_affine_t Q = ec::g2_generator();
  const fp12_t e = pairing::pairing(P, Q);
  for (int i = 0; i < 2; ++i) {
    fr_t a = fr_t::random(rng), b = fr_t::random(rng);
    g1_affine_t aP = g1_mul(a);
    g2_affine_t bQ = g2_mul(b);
    EXPECT_EQ(pairing::pairing(aP, bQ), e.pow((a * b).to_canonical()));
    EXPECT_EQ(pairing::pairing(aP, Q), pairing::pairing(P, g2_mul(a)));
  }
}

TEST(pairing, negation_inverts) {
  std::mt19937_64 rng(test::seed("pairing_negation"));
  g1_affine_t P = g1_mul(fr_t::random(rng));
  g2_affine_t Q = g2_mul(fr_t::random(rng));
  fp12_t e = pairing::pairing(P, Q);
  EXPECT_EQ(pairing::pairing(-P, Q), e.inverse());
  EXPECT_EQ(pairing::pairing(P, -Q), e.inverse());
  EXPECT_EQ(pairing::pairing(-P, -Q), e);
  EXPECT_EQ(pairing::pairing(-P, Q), e.conj());  // GT is unitary
}

TEST(pairing, infinity_contributes_one) {
  std::mt19937_64 rng(test::seed("pairing_infinity"));
  g1_affine_t P = g1_mul(fr_t::random(rng));
  g2_affine_t Q = g2_mul(fr_t::random(rng));
  EXPECT_TRUE(pairing::pairing(g1_affine_t::infinity(), Q).is_one());
  EXPECT_TRUE(pairing::pairing(P, g2_affine_t::infinity()).is_one());
  EXPECT_TRUE(pairing::pairing(g1_affine_t::infinity(), g2_affine_t::infinity()).is_one());
  std::vector<affine_term_t> t{{P, Q}, {g1_affine_t::infinity(), Q}, {P, g2_affine_t::infinity()}};
  EXPECT_EQ(pairing::multi_miller_loop(t), pairing::miller_loop(P, Q));
  EXPECT_TRUE(pairing::multi_miller_loop(std::span<const affine_term_t>{}).is_one());
  EXPECT_TRUE(pairing::pairing_product_is_one(std::span<const affine_term_t>{}));
}

TEST(pairing, multi_miller_loop_and_product_check) {
  std::mt19937_64 rng(test::seed("pairing_product"));
  const fr_t a = fr_t::random(rng), b = fr_t::random(rng), c = fr_t::random(rng);
  const g1_affine_t P = g1_mul(b), aP = g1_mul(a * b);
  const g2_affine_t Q = g2_mul(c), aQ = g2_mul(a * c);
  // e(aP, Q) e(-P, aQ) = 1
  std::vector<affine_term_t> ok{{aP, Q}, {-P, aQ}};
  EXPECT_TRUE(pairing::pairing_product_is_one(ok));
  std::vector<affine_term_t> bad{{aP, Q}, {P, aQ}};
  EXPECT_FALSE(pairing::pairing_product_is_one(bad));
  // Same with prepared G2 points, as a verifier holds them.
  const pairing::g2_prepared_t q_prep(Q), aq_prep(aQ);
  std::vector<prepared_term_t> okp{{aP, &q_prep}, {-P, &aq_prep}};
  EXPECT_TRUE(pairing::pairing_product_is_one(okp));
  EXPECT_EQ(pairing::miller_loop(aP, q_prep), pairing::miller_loop(aP, Q));
  // The shared-squaring product equals the product of separate Miller loops.
  g1_affine_t R = g1_mul(fr_t::random(rng));
  g2_affine_t S = g2_mul(fr_t::random(rng));
  std::vector<affine_term_t> three{{aP, Q}, {P, aQ}, {R, S}};
  EXPECT_EQ(pairing::multi_miller_loop(three),
            pairing::miller_loop(aP, Q) * pairing::miller_loop(P, aQ) * pairing::miller_loop(R, S));
}

TEST(pairing, noble_known_answers) {
  auto kat = load_kat("pairing.json");
  ASSERT_TRUE(kat.contains("cases"));
  ASSERT_EQ(kat.value("noble_out_is_exact_pow", 0), 3);
  size_t n = 0;
  for (const auto& c : kat["cases"]) {
    const auto& jp = c.at("p");
    const auto& jq = c.at("q");
    g1_affine_t P{fp_hex(jp.at("x")), fp_hex(jp.at("y"))};
    g2_affine_t Q{fp2_json(jq.at("x")), fp2_json(jq.at("y"))};
    ASSERT_EQ(P.is_inf(), jp.at("inf").get<bool>());
    ASSERT_EQ(Q.is_inf(), jq.at("inf").get<bool>());
    fp12_t f = pairing::miller_loop(P, Q);
    EXPECT_EQ(pairing::final_exponentiation(f), fp12_json(c.at("out"))) << c.at("note") << " case " << n;
    EXPECT_EQ(pairing::final_exponentiation_cube(f), fp12_json(c.at("out_noble"))) << c.at("note") << " case " << n;
    ++n;
  }
  EXPECT_GE(n, 19u);
}

TEST(pairing, noble_final_exponentiation_known_answers) {
  auto kat = load_kat("fp12.json");
  size_t n = 0;
  for (const auto& c : kat.at("cases")) {
    if (c.at("op") != "final_exp") continue;
    fp12_t a = fp12_json(c.at("a"));
    EXPECT_EQ(pairing::final_exponentiation(a), fp12_json(c.at("out"))) << "case " << n;
    EXPECT_EQ(pairing::final_exponentiation_cube(a), fp12_json(c.at("out_noble"))) << "case " << n;
    ++n;
  }
  EXPECT_GE(n, 4u);
}
