// Fallback PoSt vanilla proofs of synthetic sectors (full Tree R at the test
// sizes, sparse at 32/64 GiB) and their checker: what upstream's
// prove_all_partitions produces verifies (storage-proofs-post
// tests/fallback_vanilla.rs runs the same shapes: full and short partitions,
// base, sub and top trees, API 1.0/1.1/1.2), and each corruption is refused
// naming the corrupted element.
#include <gtest/gtest.h>

#include <random>

#include "porep/post_challenges.hpp"
#include "porep/post_shape.hpp"
#include "porep/post_vanilla.hpp"
#include "test_seed.hpp"

namespace cuzk::porep {
namespace {

constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;

bytes32_t random_randomness(std::mt19937_64& rng) {
  bytes32_t r;
  for (auto& b : r) b = std::uint8_t(rng());
  r[31] &= 0x3f;
  return r;
}

std::vector<std::uint64_t> random_ids(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::uint64_t> ids(n);
  for (auto& x : ids) x = rng() % 1000000;
  return ids;
}

std::string describe(const std::optional<check_failure_t>& f) {
  return f ? f->element + ": " + f->reason : "accepted";
}

struct partition_t {
  post_shape_t shape;
  api_version_t v;
  bytes32_t randomness;
  unsigned k;
  std::vector<post_sector_proof_t> sectors;
  std::optional<check_failure_t> check(std::size_t real = 0) const {
    return check_post_partition(shape, v, randomness, k, sectors, real);
  }
};

partition_t make_partition(std::mt19937_64& rng, post_kind_t kind, std::uint64_t bytes, api_version_t v,
                           std::size_t n_sectors, unsigned k = 0) {
  partition_t p{post_shape_for(kind, bytes), v, random_randomness(rng), k, {}};
  p.sectors = generate_post_partition(p.shape, v, p.randomness, k, random_ids(rng, n_sectors), rng());
  return p;
}

TEST(PostVanilla, GeneratedPartitionsVerify) {
  std::mt19937_64 rng(test::seed("PostVanilla.GeneratedPartitionsVerify"));
  for (auto v : {api_version_t::v1_0, api_version_t::v1_1, api_version_t::v1_2}) {
    // Window 2 KiB: 2 sectors per partition; partition 3 checks the sector positions.
    for (unsigned k : {0u, 3u}) {
      auto p = make_partition(rng, post_kind_t::window, 2 * kib, v, 2, k);
      EXPECT_EQ(p.check(), std::nullopt) << describe(p.check());
      for (const auto& s : p.sectors) {
        EXPECT_EQ(s.challenges.size(), 10u);
        EXPECT_EQ(s.challenges[0].path.siblings.size(), 2u);
      }
    }
  }
  auto w = make_partition(rng, post_kind_t::winning, 2 * kib, api_version_t::v1_0, 1);
  EXPECT_EQ(w.check(), std::nullopt) << describe(w.check());
  EXPECT_EQ(w.sectors[0].challenges.size(), 66u);
}

TEST(PostVanilla, FullAndSparseTreesBothVerify) {
  std::mt19937_64 rng(test::seed("PostVanilla.FullAndSparseTreesBothVerify"));
  const auto shape = post_shape_for(post_kind_t::window, 2 * kib);
  const auto r = random_randomness(rng);
  for (auto model : {post_tree_model_t::full, post_tree_model_t::sparse}) {
    const auto leaves = post_sector_challenges(shape, api_version_t::v1_2, r, 77, 0);
    const auto s = generate_post_sector(shape, 77, leaves, rng(), model);
    EXPECT_EQ(check_post_sector(shape, api_version_t::v1_2, r, 0, s, "sector"), std::nullopt);
  }
}

TEST(PostVanilla, BigSectorsSparseAndPadded) {
  std::mt19937_64 rng(test::seed("PostVanilla.BigSectorsSparseAndPadded"));
  // 32 GiB: 8-8-0, a full partition is 2349 sectors; 3 real ones padded.
  auto p = make_partition(rng, post_kind_t::window, 32 * gib, api_version_t::v1_2, 3, 1);
  EXPECT_EQ(p.sectors[0].challenges[0].path.siblings.size(), 10u);
  EXPECT_EQ(p.check(), std::nullopt) << describe(p.check());
  p.sectors = pad_post_partition(std::move(p.sectors), p.shape.sectors_per_partition);
  ASSERT_EQ(p.sectors.size(), 2349u);
  EXPECT_EQ(p.check(3), std::nullopt) << describe(p.check(3));
  p.sectors[2347].challenges[0].leaf += ff::fr_t::one();
  EXPECT_EQ(p.check(3)->element, "sectors[2347].inclusion_proofs[0].leaf");

  // 64 GiB: 8-8-2; a sibling at the top (2-ary) level is named exactly, since
  // every opening proves both children of the root.
  auto q = make_partition(rng, post_kind_t::winning, 64 * gib, api_version_t::v1_0, 1);
  EXPECT_EQ(q.sectors[0].challenges[0].path.siblings.size(), 11u);
  EXPECT_EQ(q.check(), std::nullopt) << describe(q.check());
  q.sectors[0].challenges[5].path.siblings[10][0] += ff::fr_t::one();
  EXPECT_EQ(q.check()->element, "sectors[0].inclusion_proofs[5].path[10][0]") << describe(q.check());
}

TEST(PostVanilla, EightMiBFullTree) {
  std::mt19937_64 rng(test::seed("PostVanilla.EightMiBFullTree"));
  auto p = make_partition(rng, post_kind_t::window, 8 * mib, api_version_t::v1_0, 1);
  EXPECT_EQ(p.sectors[0].challenges[0].path.siblings.size(), 6u);
  EXPECT_EQ(p.check(), std::nullopt) << describe(p.check());
}

TEST(PostVanilla, PaddingRepeatsTheLastSector) {
  std::mt19937_64 rng(test::seed("PostVanilla.PaddingRepeatsTheLastSector"));
  auto p = make_partition(rng, post_kind_t::window, 2 * kib, api_version_t::v1_0, 1);
  const auto padded = pad_post_partition(p.sectors, 2);
  ASSERT_EQ(padded.size(), 2u);
  EXPECT_EQ(padded[1].sector_id, padded[0].sector_id);
  EXPECT_EQ(padded[1].comm_r, padded[0].comm_r);
  p.sectors = padded;
  // Challenged as sector 0 (as upstream's public inputs repeat it); at its own
  // position 1 its V1_0 leaves would differ.
  EXPECT_EQ(p.check(1), std::nullopt) << describe(p.check(1));
  EXPECT_EQ(p.check()->element, "sectors[1].sector_id") << describe(p.check());
  p.sectors[1].comm_c += ff::fr_t::one();
  EXPECT_EQ(p.check(1)->element, "sectors[1].comm_c");
  EXPECT_THROW(pad_post_partition({}, 2), std::invalid_argument);
  EXPECT_THROW(pad_post_partition(padded, 1), std::invalid_argument);
}

// True when another opening of the sector shares leaf j's level-0 group.
bool group_shared(const post_sector_proof_t& s, std::size_t j) {
  for (std::size_t i = 0; i < s.challenges.size(); ++i)
    if (i != j && s.challenges[i].leaf_index / 8 == s.challenges[j].leaf_index / 8) return true;
  return false;
}

TEST(PostVanilla, CorruptionsNameTheElement) {
  std::mt19937_64 rng(test::seed("PostVanilla.CorruptionsNameTheElement"));
  const auto good = make_partition(rng, post_kind_t::window, 2 * kib, api_version_t::v1_0, 2);
  ASSERT_EQ(good.check(), std::nullopt);
  const ff::fr_t one = ff::fr_t::one();
  auto expect = [&](auto&& corrupt, const std::string& element) {
    auto p = good;
    corrupt(p.sectors);
    const auto f = p.check();
    ASSERT_TRUE(f) << "accepted a corruption of " << element;
    EXPECT_EQ(f->element, element) << f->reason;
  };
  using ss = std::vector<post_sector_proof_t>;
  // Top level: every opening proves all 8 children of the root.
  expect([&](ss& s) { s[1].challenges[3].path.siblings[1][5] += one; }, "sectors[1].inclusion_proofs[3].path[1][5]");
  expect([&](ss& s) { s[1].challenges[3].leaf_index ^= 1; }, "sectors[1].inclusion_proofs[3].leaf_index");
  expect([&](ss& s) { s[0].sector_id += 1; }, "sectors[0].sector_id");
  expect([&](ss& s) { s[1].comm_r += one; }, "sectors[1].comm_r");
  expect([&](ss& s) { s[1].comm_c += one; }, "sectors[1].comm_r");
  expect([&](ss& s) { s[0].comm_r_last += one; }, "sectors[0].comm_r_last");
  expect([&](ss& s) { s[0].challenges.pop_back(); }, "sectors[0].inclusion_proofs");
  expect([&](ss& s) { s[0].challenges[2].path.siblings[0].pop_back(); }, "sectors[0].inclusion_proofs[2].path[0]");
  expect([&](ss& s) { s.push_back(s[0]); }, "sectors");
  // Level 0: named exactly when another opening shares the group, else by the level above.
  for (std::size_t j = 0; j < 10; ++j) {
    const bool shared = group_shared(good.sectors[0], j);
    const std::string pw = "sectors[0].inclusion_proofs[" + std::to_string(j) + "]";
    expect([&](ss& s) { s[0].challenges[j].path.siblings[0][2] += one; }, shared ? pw + ".path[0][2]" : pw + ".path[0]");
    // So is a wrong leaf: another opening of its group proves it.
    expect([&](ss& s) { s[0].challenges[j].leaf += one; }, shared ? pw + ".leaf" : pw + ".path[0]");
  }
}

TEST(PostVanilla, WrongRandomnessOrPartitionIsRefused) {
  std::mt19937_64 rng(test::seed("PostVanilla.WrongRandomnessOrPartitionIsRefused"));
  auto p = make_partition(rng, post_kind_t::window, 2 * kib, api_version_t::v1_0, 2, 0);
  auto q = p;
  q.randomness[0] ^= 1;
  EXPECT_EQ(q.check()->element, "sectors[0].sector_id");
  q = p;
  q.k = 1;  // V1_0 leaves depend on the sector's position, hence the partition
  EXPECT_EQ(q.check()->element, "sectors[0].sector_id");
  q.v = api_version_t::v1_2;  // ... V1_2 ones do not, but these were drawn under V1_0
  EXPECT_TRUE(q.check());
}

}  // namespace
}  // namespace cuzk::porep
