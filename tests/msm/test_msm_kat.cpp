// The msm layer against the @noble/curves MSM known answers (tests/kat/g1.json, g2.json).
#include <gtest/gtest.h>

#include "kat.hpp"
#include "msm/msm.hpp"

using namespace cuzk;

template <class C, class Load>
void check_msm_kat(const std::string& file, Load load) {
  auto kat = test::load_kat(file);
  size_t checked = 0;
  for (const auto& c : kat["msm"]) {
    std::vector<ec::affine_t<C>> bases;
    std::vector<ff::fr_t> scalars;
    for (size_t i = 0; i < c["points"].size(); ++i) {
      bases.push_back(load(c["points"][i]));
      scalars.push_back(test::kat_field<ff::fr_t>(c["scalars"][i]));
    }
    for (auto split : {msm::bit_split::automatic, msm::bit_split::always, msm::bit_split::never}) {
      msm::msm_options opt;
      opt.split = split;
      auto got = msm::msm<C>(std::span<const ec::affine_t<C>>(bases), std::span<const ff::fr_t>(scalars), opt);
      EXPECT_EQ(got.to_affine(), load(c["out"])) << c["note"];
    }
    ++checked;
  }
  EXPECT_GT(checked, 5u);
}

TEST(msm_kat, g1_matches_noble) { check_msm_kat<ec::g1_curve>("g1.json", test::kat_g1); }
TEST(msm_kat, g2_matches_noble) { check_msm_kat<ec::g2_curve>("g2.json", test::kat_g2); }
