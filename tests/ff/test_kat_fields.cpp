// Fp, Fr and Fp2 against the @noble/curves known answers (tests/kat/fp*.json, fr.json).
#include <gtest/gtest.h>

#include "kat.hpp"

using namespace cuzk;
using cuzk::test::kat_field;
using cuzk::test::kat_fp2;

template <class F>
void check_prime_field_kat(const std::string& file) {
  auto kat = test::load_kat(file);
  ASSERT_EQ(F::from_hex(kat["modulus"].get<std::string>()), std::nullopt);  // p itself is rejected
  size_t checked = 0;
  for (const auto& c : kat["cases"]) {
    const std::string op = c["op"];
    F a = kat_field<F>(c["a"]);
    SCOPED_TRACE(op + " a=" + c["a"].get<std::string>());
    if (op == "sqrt") {
      auto r = a.sqrt();
      if (c["out"].is_null()) {
        EXPECT_FALSE(r.has_value());
      } else {
        ASSERT_TRUE(r.has_value());
        EXPECT_TRUE(*r == kat_field<F>(c["out"]) || *r == kat_field<F>(c["out_neg"]));
      }
      ++checked;
      continue;
    }
    F out = kat_field<F>(c["out"]);
    if (op == "add") EXPECT_EQ(a + kat_field<F>(c["b"]), out);
    else if (op == "sub") EXPECT_EQ(a - kat_field<F>(c["b"]), out);
    else if (op == "mul") EXPECT_EQ(a * kat_field<F>(c["b"]), out);
    else if (op == "sqr") EXPECT_EQ(a.sqr(), out);
    else if (op == "neg") EXPECT_EQ(-a, out);
    else if (op == "inv") EXPECT_EQ(a.inverse(), out);
    else if (op == "pow") EXPECT_EQ(a.pow(test::kat_limbs<F::n_limbs>(c["e"])), out);
    else ADD_FAILURE() << "unknown op " << op;
    EXPECT_EQ(out.to_hex(), c["out"].get<std::string>());
    ++checked;
  }
  EXPECT_GT(checked, 200u);
}

TEST(kat_fields, fp_matches_noble) { check_prime_field_kat<ff::fp_t>("fp.json"); }
TEST(kat_fields, fr_matches_noble) { check_prime_field_kat<ff::fr_t>("fr.json"); }

TEST(kat_fields, fp2_matches_noble) {
  auto kat = test::load_kat("fp2.json");
  size_t checked = 0;
  for (const auto& c : kat["cases"]) {
    const std::string op = c["op"];
    ff::fp2_t a = kat_fp2(c["a"]);
    SCOPED_TRACE(op);
    if (op == "sqrt") {
      auto r = a.sqrt();
      if (c["out"].is_null()) {
        EXPECT_FALSE(r.has_value());
      } else {
        ASSERT_TRUE(r.has_value());
        EXPECT_TRUE(*r == kat_fp2(c["out"]) || *r == kat_fp2(c["out_neg"]));
      }
    } else {
      ff::fp2_t out = kat_fp2(c["out"]);
      if (op == "add") EXPECT_EQ(a + kat_fp2(c["b"]), out);
      else if (op == "sub") EXPECT_EQ(a - kat_fp2(c["b"]), out);
      else if (op == "mul") EXPECT_EQ(a * kat_fp2(c["b"]), out);
      else if (op == "sqr") EXPECT_EQ(a.sqr(), out);
      else if (op == "inv") EXPECT_EQ(a.inverse(), out);
      else if (op == "neg") EXPECT_EQ(-a, out);
      else if (op == "conj") EXPECT_EQ(a.conj(), out);
      else if (op == "mul_by_nonresidue") EXPECT_EQ(a.mul_by_nonresidue(), out);
      else if (op == "frobenius") EXPECT_EQ(a.frobenius(), out);
      else ADD_FAILURE() << "unknown op " << op;
    }
    ++checked;
  }
  EXPECT_GT(checked, 250u);
}
