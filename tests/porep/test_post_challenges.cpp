// Fallback PoSt challenges (rust-fil-proofs storage-proofs-post
// fallback/vanilla.rs generate_leaf_challenge, generate_sector_challenge;
// fallback/utils.rs get_challenge_index; filecoin-proofs api/post_util.rs
// generate_fallback_sector_challenges): values from an independent Python
// model, the same derivation spelled out byte by byte here on seeded inputs,
// and the properties upstream's own tests assert (filecoin-proofs tests/api.rs:
// a set of one sector always yields index 0; an empty set is an error).
#include <gtest/gtest.h>

#include <random>

#include "gadgets/sha256_native.hpp"
#include "porep/post_challenges.hpp"
#include "porep/post_shape.hpp"
#include "test_seed.hpp"

namespace cuzk::porep {
namespace {

using u64s = std::vector<std::uint64_t>;
constexpr std::uint64_t kib = 1024, gib = std::uint64_t(1) << 30;

// The Python model's inputs: randomness 00 01 … 1f, prover_id of miner 1000.
bytes32_t model_randomness() {
  bytes32_t r;
  for (int i = 0; i < 32; ++i) r[i] = std::uint8_t(i);
  return r;
}
bytes32_t model_prover_id() {
  bytes32_t p{};
  p[0] = 0xe8, p[1] = 0x07;
  return p;
}

// The Python model (python3 with hashlib and struct; run once, its outputs hard-coded below):
//   def leaf(r, sid, c, nodes):
//     d = hashlib.sha256(r + struct.pack('<Q', sid) + struct.pack('<Q', c)).digest()
//     return struct.unpack('<Q', d[:8])[0] % nodes
//   def sect(r, p, n, m):
//     d = hashlib.sha256(p + r + struct.pack('<Q', n)).digest()
//     return struct.unpack('<Q', d[:8])[0] % m
//   window V1_0: c = i*10 + n; V1_2: c = n
TEST(PostChallenges, WindowLeavesMatchPythonModel) {
  const auto shape = post_shape_for(post_kind_t::window, 2 * kib);
  const auto r = model_randomness();
  EXPECT_EQ(post_sector_challenges(shape, api_version_t::v1_0, r, 7, 0), (u64s{33, 37, 45, 53, 36, 46, 51, 23, 4, 31}));
  EXPECT_EQ(post_sector_challenges(shape, api_version_t::v1_0, r, 9, 1), (u64s{12, 11, 57, 62, 39, 40, 11, 1, 13, 53}));
  // API 1.2 drops the sector's position: sector 0 draws the same, sector 1 not.
  EXPECT_EQ(post_sector_challenges(shape, api_version_t::v1_2, r, 7, 0), (u64s{33, 37, 45, 53, 36, 46, 51, 23, 4, 31}));
  EXPECT_EQ(post_sector_challenges(shape, api_version_t::v1_2, r, 9, 1), (u64s{45, 3, 29, 7, 27, 39, 27, 45, 41, 38}));
  // PoSt did not change between 1.0 and 1.1.
  EXPECT_EQ(post_sector_challenges(shape, api_version_t::v1_1, r, 9, 1),
            post_sector_challenges(shape, api_version_t::v1_0, r, 9, 1));

  // 32 GiB: partition 1, sector 5 of 2349 -> sector_index 2354.
  const auto big = post_shape_for(post_kind_t::window, 32 * gib);
  const auto v10 = post_sector_challenges(big, api_version_t::v1_0, r, 123456, 2354);
  const auto v12 = post_sector_challenges(big, api_version_t::v1_2, r, 123456, 2354);
  EXPECT_EQ(u64s(v10.begin(), v10.begin() + 3), (u64s{699876382, 159008667, 734915600}));
  EXPECT_EQ(u64s(v12.begin(), v12.begin() + 3), (u64s{702460075, 667784959, 490877968}));
}

TEST(PostChallenges, WinningLeavesAndSectorMatchPythonModel) {
  const auto shape = post_shape_for(post_kind_t::winning, 32 * gib);
  const auto r = model_randomness();
  const auto w = post_sector_challenges(shape, api_version_t::v1_0, r, 42, 0);
  ASSERT_EQ(w.size(), 66u);
  EXPECT_EQ(u64s(w.begin(), w.begin() + 3), (u64s{509450890, 1068162304, 182600454}));
  EXPECT_EQ(w[65], 957324667u);
  EXPECT_EQ(winning_sector_challenges(r, model_prover_id(), 1000, 3), (u64s{6, 908, 394}));
  EXPECT_EQ(winning_sector_challenge(r, model_prover_id(), 0, 1000), 6u);
}

// The derivation written out once more, as plainly as possible, on seeded inputs.
std::uint64_t spelled_out_leaf(const bytes32_t& r, std::uint64_t sector_id, std::uint64_t c, std::uint64_t nodes) {
  std::vector<std::uint8_t> msg(r.begin(), r.end());
  for (int i = 0; i < 8; ++i) msg.push_back(std::uint8_t(sector_id >> (8 * i)));
  for (int i = 0; i < 8; ++i) msg.push_back(std::uint8_t(c >> (8 * i)));
  const auto d = gadgets::sha256(msg);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | d[i];
  return v % nodes;
}

TEST(PostChallenges, LeavesMatchSpelledOutDerivation) {
  std::mt19937_64 rng(test::seed("PostChallenges.LeavesMatchSpelledOutDerivation"));
  for (std::uint64_t bytes : {2 * kib, 8 * kib * kib, 32 * gib, 64 * gib}) {
    const auto shape = post_shape_for(post_kind_t::window, bytes);
    for (int t = 0; t < 20; ++t) {
      bytes32_t r;
      for (auto& b : r) b = std::uint8_t(rng());
      r[31] &= 0x3f;
      const std::uint64_t sector_id = rng(), sector_index = rng() % 5000;
      for (auto v : {api_version_t::v1_0, api_version_t::v1_2}) {
        const auto got = post_sector_challenges(shape, v, r, sector_id, sector_index);
        for (unsigned n = 0; n < got.size(); ++n) {
          const std::uint64_t c = v == api_version_t::v1_2 ? n : sector_index * 10 + n;
          ASSERT_EQ(got[n], spelled_out_leaf(r, sector_id, c, bytes / 32)) << "n " << n;
        }
      }
    }
  }
}

TEST(PostChallenges, ChallengeIndexByApiVersion) {
  EXPECT_EQ(post_challenge_index(api_version_t::v1_0, 3, 10, 4), 34u);
  EXPECT_EQ(post_challenge_index(api_version_t::v1_1, 3, 10, 4), 34u);
  EXPECT_EQ(post_challenge_index(api_version_t::v1_2, 3, 10, 4), 4u);
}

TEST(PostChallenges, FallbackSectorChallengesSpanPartitions) {
  const auto shape = post_shape_for(post_kind_t::window, 2 * kib);  // 2 sectors per partition
  const auto r = model_randomness();
  const std::vector<std::uint64_t> ids{7, 9, 11};
  const auto m = fallback_sector_challenges(shape, api_version_t::v1_0, r, ids);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m.at(7), post_sector_challenges(shape, api_version_t::v1_0, r, 7, 0));
  EXPECT_EQ(m.at(9), post_sector_challenges(shape, api_version_t::v1_0, r, 9, 1));
  // The third sector is partition 1's first: its position is 2.
  EXPECT_EQ(m.at(11), post_sector_challenges(shape, api_version_t::v1_0, r, 11, 2));
  EXPECT_NE(m.at(11), post_sector_challenges(shape, api_version_t::v1_0, r, 11, 0));

  // Winning challenges one chunk of one sector: the first.
  const auto win = post_shape_for(post_kind_t::winning, 2 * kib);
  const auto w = fallback_sector_challenges(win, api_version_t::v1_0, r, ids);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w.at(7).size(), 66u);

  EXPECT_THROW(fallback_sector_challenges(shape, api_version_t::v1_0, r, {}), std::invalid_argument);
  bytes32_t too_big;
  too_big.fill(0xff);
  EXPECT_THROW(fallback_sector_challenges(shape, api_version_t::v1_0, too_big, ids), std::invalid_argument);
  EXPECT_THROW(post_sector_challenges(win, api_version_t::v1_2, r, 7, 0), std::invalid_argument);
}

TEST(PostChallenges, WinningSectorSelectionAsUpstreamTests) {
  std::mt19937_64 rng(test::seed("PostChallenges.WinningSectorSelectionAsUpstreamTests"));
  for (int t = 0; t < 10; ++t) {
    bytes32_t r, p;
    for (auto& b : r) b = std::uint8_t(rng());
    for (auto& b : p) b = std::uint8_t(rng());
    r[31] &= 0x3f, p[31] &= 0x3f;
    // filecoin-proofs tests/api.rs winning_post: "with a sector_count of 1, the only valid index is 0".
    EXPECT_EQ(winning_sector_challenges(r, p, 1), u64s{0});
    for (auto i : winning_sector_challenges(r, p, 17, 5)) EXPECT_LT(i, 17u);
    // test_winning_post_empty_sector_challenge: an empty set is an error.
    EXPECT_THROW(winning_sector_challenges(r, p, 0), std::invalid_argument);
  }
}

TEST(PostChallenges, ShapesFromConstants) {
  auto w = post_shape_for(post_kind_t::winning, 32 * gib);
  EXPECT_EQ(w.sectors_per_partition, 1u);
  EXPECT_EQ(w.challenges_per_sector, 66u);
  EXPECT_EQ(w.sector.tree_cr_arities(), (std::vector<unsigned>{8, 8, 8, 8, 8, 8, 8, 8, 8, 8}));
  EXPECT_EQ(post_shape_for(post_kind_t::window, 32 * gib).sectors_per_partition, 2349u);
  EXPECT_EQ(post_shape_for(post_kind_t::window, 64 * gib).sectors_per_partition, 2300u);
  EXPECT_EQ(post_shape_for(post_kind_t::window, 512 * kib * kib).sectors_per_partition, 2u);
  EXPECT_EQ(post_shape_for(post_kind_t::window, 2 * kib).challenges_per_sector, 10u);
  EXPECT_THROW(post_shape_for(post_kind_t::window, 4 * kib), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::porep
