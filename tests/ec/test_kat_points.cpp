// G1 and G2 arithmetic and encodings against the @noble/curves known answers.
#include <gtest/gtest.h>

#include "kat.hpp"

using namespace cuzk;
using namespace cuzk::ec;

template <class C, class Load>
void check_group_kat(const std::string& file, Load load) {
  using J = jacobian_t<C>;
  auto kat = test::load_kat(file);
  auto gen = load(kat["generator"]);
  EXPECT_TRUE(gen.is_on_curve());
  for (const auto& c : kat["add"]) {
    auto p = load(c["p"]), q = load(c["q"]);
    EXPECT_EQ(J::from_affine(p).add_mixed(q).to_affine(), load(c["out"]));
    EXPECT_EQ((J::from_affine(p) + J::from_affine(q)).to_affine(), load(c["out"]));
  }
  for (const auto& c : kat["double"]) EXPECT_EQ(J::from_affine(load(c["p"])).dbl().to_affine(), load(c["out"]));
  for (const auto& c : kat["mul"]) {
    auto k = test::kat_limbs<4>(c["k"]);
    EXPECT_EQ(J::from_affine(load(c["p"])).mul_limbs(k).to_affine(), load(c["out"])) << c["k"];
  }
  // MSM by the naive sum here; the msm layer checks its own algorithms against the same file.
  for (const auto& c : kat["msm"]) {
    J acc = J::infinity();
    for (size_t i = 0; i < c["points"].size(); ++i)
      acc += J::from_affine(load(c["points"][i])).mul_limbs(test::kat_limbs<4>(c["scalars"][i]));
    EXPECT_EQ(acc.to_affine(), load(c["out"])) << c["note"];
  }
  // Every point in the file re-encodes byte for byte and decodes back.
  for (const auto& c : kat["add"]) {
    for (const char* key : {"p", "q", "out"}) {
      const auto& pj = c[key];
      auto p = load(pj);
      EXPECT_EQ(to_hex(compress(p)), pj["compressed"].template get<std::string>());
      EXPECT_EQ(to_hex(serialize(p)), pj["uncompressed"].template get<std::string>());
      affine_t<C> q;
      EXPECT_EQ(decode(test::kat_bytes(pj["compressed"]), q), point_error::none);
      EXPECT_EQ(q, p);
    }
  }
}

TEST(kat_points, g1_matches_noble) { check_group_kat<g1_curve>("g1.json", test::kat_g1); }
TEST(kat_points, g2_matches_noble) { check_group_kat<g2_curve>("g2.json", test::kat_g2); }

template <class A>
void check_encodings(const nlohmann::json& valid, const nlohmann::json& invalid) {
  for (const auto& v : valid) {
    A p;
    auto bytes = test::kat_bytes(v);
    ASSERT_EQ(decode(bytes, p), point_error::none) << v;
    std::vector<uint8_t> again;
    if (bytes.size() == sizeof(A) / 2) {
      auto c = compress(p);
      again.assign(c.begin(), c.end());
    } else {
      auto u = serialize(p);
      again.assign(u.begin(), u.end());
    }
    EXPECT_EQ(again, bytes);
  }
  for (const auto& inv : invalid) {
    A p;
    auto err = decode(test::kat_bytes(inv["hex"]), p);
    EXPECT_NE(err, point_error::none) << inv["why"];
  }
}

TEST(kat_points, encodings_accept_valid_and_reject_invalid) {
  auto kat = test::load_kat("encodings.json");
  check_encodings<g1_affine_t>(kat["g1_valid"], kat["g1_invalid"]);
  check_encodings<g2_affine_t>(kat["g2_valid"], kat["g2_invalid"]);
}
