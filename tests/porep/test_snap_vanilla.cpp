// SnapDeals natively (porep/snap_vanilla, porep/snap_shape) against
// rust-fil-proofs storage-proofs-update:
//  - challenges.rs test_challenges_against_hardcoded: the first five
//    challenges of each (size, partition) for comm_r_new =
//    PoseidonDomain::random(XorShiftRng::from_seed(TEST_SEED)), which also
//    pins the "gen randomness" Poseidon (domain tag 2^40);
//  - test_challenge_bucketing: every challenge of partition k lies in the
//    k-th chunk of nodes, for every allowed size;
//  - constants.rs: partitions, challenges, apex leaves, hs and Tree R shapes;
//  - the generated sector's partitions pass the checker, and each corrupted
//    element is the one named.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "gadgets/poseidon_constants.hpp"
#include "gadgets/poseidon_native.hpp"
#include "porep/merkle.hpp"
#include "porep/seeded_fr.hpp"
#include "porep/snap_vanilla.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using ff::fr_t;
using porep::snap_shape_for;

namespace {

constexpr std::uint64_t kib = 1024, mib = kib * kib, gib = mib * kib;

// rand_xorshift 0.3 XorShiftRng: from_seed reads four u32 LE; next_u64 is
// two next_u32, low word first.
struct xorshift_t {
  std::uint32_t x, y, z, w;
  explicit xorshift_t(const std::uint8_t (&seed)[16]) {
    auto word = [&](int i) {
      return std::uint32_t(seed[4 * i]) | std::uint32_t(seed[4 * i + 1]) << 8 | std::uint32_t(seed[4 * i + 2]) << 16 |
             std::uint32_t(seed[4 * i + 3]) << 24;
    };
    x = word(0), y = word(1), z = word(2), w = word(3);
  }
  std::uint32_t next_u32() {
    const std::uint32_t t = x ^ (x << 11);
    x = y, y = z, z = w;
    w = w ^ (w >> 19) ^ (t ^ (t >> 8));
    return w;
  }
  std::uint64_t next_u64() {
    const std::uint64_t lo = next_u32();
    return (std::uint64_t(next_u32()) << 32) | lo;
  }
};

// blstrs Scalar::random: four next_u64 as a little-endian number with the
// top bit masked off (255 bits), drawn again until it is below r.
fr_t scalar_random(xorshift_t& rng) {
  for (;;) {
    std::array<std::uint8_t, 32> b{};
    for (int i = 0; i < 4; ++i) {
      std::uint64_t l = rng.next_u64();
      if (i == 3) l &= ~(std::uint64_t(1) << 63);
      for (int k = 0; k < 8; ++k) b[8 * i + k] = std::uint8_t(l >> (8 * k));
    }
    if (auto x = fr_t::from_bytes_le(b)) return *x;
  }
}

constexpr std::uint8_t test_seed[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                        0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};

}  // namespace

TEST(SnapShape, UpstreamConstants) {
  struct row_t {
    std::uint64_t bytes;
    unsigned partitions, challenges, apex, sub, top, h;
  };
  const row_t rows[] = {
      {kib, 1, 10, 8, 4, 0, 1},          {2 * kib, 1, 10, 8, 0, 0, 1},    {4 * kib, 1, 10, 8, 2, 0, 1},
      {8 * kib, 1, 10, 8, 4, 0, 1},      {16 * kib, 2, 10, 128, 8, 0, 1}, {32 * kib, 2, 10, 128, 8, 2, 1},
      {8 * mib, 4, 10, 128, 0, 0, 10},   {16 * mib, 4, 10, 128, 2, 0, 10}, {512 * mib, 16, 86, 128, 0, 0, 10},
      {32 * gib, 16, 86, 128, 8, 0, 10}, {64 * gib, 16, 86, 128, 8, 2, 10},
  };
  ASSERT_EQ(porep::snap_sector_sizes().size(), std::size(rows));
  for (const row_t& r : rows) {
    const auto s = snap_shape_for(r.bytes);
    EXPECT_EQ(s.partitions, r.partitions) << r.bytes;
    EXPECT_EQ(s.challenges, r.challenges) << r.bytes;
    EXPECT_EQ(s.apex_leaves, r.apex) << r.bytes;
    EXPECT_EQ(s.sub_arity, r.sub) << r.bytes;
    EXPECT_EQ(s.top_arity, r.top) << r.bytes;
    EXPECT_EQ(s.h_default(), r.h) << r.bytes;
    EXPECT_EQ(porep::tree_leaves(s.tree_r_arities()), s.nodes) << r.bytes;
  }
  // 32 GiB: 9 base levels and a sub level of 8; k_and_h_select packs h_select = 2^3 above 4 partition bits.
  const auto s = snap_shape_for(32 * gib);
  EXPECT_EQ(s.tree_r_arities(), (std::vector<unsigned>{8, 8, 8, 8, 8, 8, 8, 8, 8, 8}));
  EXPECT_EQ(s.k_and_h_select(5, 10), 5u | (8u << 4));
  EXPECT_EQ(s.apex_height(), 30u - 4 - 7);
  EXPECT_THROW(s.k_and_h_select(16, 10), std::invalid_argument);
  EXPECT_THROW(s.k_and_h_select(0, 6), std::invalid_argument);
  EXPECT_THROW(snap_shape_for(64 * kib), std::invalid_argument);
}

TEST(SnapChallenges, UpstreamHardcodedVectors) {
  xorshift_t rng(test_seed);
  const fr_t comm_r_new = scalar_random(rng);
  const std::map<std::pair<std::uint64_t, unsigned>, std::array<std::uint32_t, 5>> want = {
      {{kib, 0}, {21, 7, 3, 31, 0}},
      {{2 * kib, 0}, {53, 51, 56, 3, 0}},
      {{4 * kib, 0}, {117, 25, 62, 0, 72}},
      {{8 * kib, 0}, {245, 140, 15, 128, 28}},
      {{16 * kib, 0}, {245, 140, 15, 128, 28}},
      {{16 * kib, 1}, {286, 308, 493, 510, 508}},
      {{32 * kib, 0}, {245, 454, 3, 400, 193}},
      {{32 * kib, 1}, {542, 666, 955, 927, 911}},
      {{8 * mib, 0}, {36085, 32783, 44060, 10950, 3731}},
      {{8 * mib, 1}, {78878, 130797, 112892, 93994, 78379}},
      {{16 * mib, 0}, {101621, 16391, 109319, 25944, 41193}},
      {{16 * mib, 1}, {209950, 163702, 175679, 224741, 197410}},
      {{512 * mib, 0}, {1019125, 116736, 706220, 59698, 799498}},
      {{512 * mib, 1}, {2092548, 1213276, 1185483, 1164598, 1095197}},
      {{512 * mib, 14}, {15212432, 15665918, 15015423, 15012912, 15495223}},
      {{512 * mib, 15}, {16388544, 15794686, 16637142, 16319148, 16328348}},
      {{32 * gib, 0}, {1019125, 27985696, 15282860, 11586600, 44651330}},
      {{32 * gib, 1}, {109168525, 127316247, 80331041, 97065716, 72310052}},
      {{32 * gib, 14}, {990420169, 955146989, 968005601, 976863263, 944650706}},
      {{32 * gib, 15}, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
      {{64 * gib, 0}, {1019125, 13992848, 3820715, 18225541, 57316660}},
      {{64 * gib, 1}, {243386253, 197875851, 204632136, 171516766, 247789010}},
      {{64 * gib, 14}, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
      {{64 * gib, 15}, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
  };
  for (const auto& [key, first5] : want) {
    const auto got = porep::snap_challenges(snap_shape_for(key.first), comm_r_new, key.second);
    ASSERT_GE(got.size(), 5u);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(got[i], first5[i]) << key.first << " bytes, partition " << key.second << ", " << i;
  }
}

TEST(SnapChallenges, EveryChallengeLiesInItsPartition) {
  std::mt19937_64 rng(test::seed("SnapChallenges.EveryChallengeLiesInItsPartition"));
  for (std::uint64_t bytes : porep::snap_sector_sizes()) {
    const auto s = snap_shape_for(bytes);
    const fr_t comm_r_new = fr_t::from_u64(rng()) * fr_t::from_u64(rng()) + fr_t::from_u64(rng());
    for (unsigned k = 0; k < s.partitions; ++k) {
      const auto cs = porep::snap_challenges(s, comm_r_new, k);
      ASSERT_EQ(cs.size(), s.challenges);
      for (std::uint32_t c : cs) EXPECT_EQ(c >> s.random_bits_per_challenge(), k) << bytes << " bytes, c = " << c;
    }
  }
}

TEST(SnapChallenges, RandomnessUsesTheGenRandomnessTag) {
  // phi and rho are arity-2 Poseidon with tag 2^40, not the Merkle tag 3.
  const fr_t a = fr_t::from_u64(7), b = fr_t::from_u64(11);
  const fr_t in[2] = {a, b};
  EXPECT_EQ(gadgets::poseidon_gen_randomness_params().domain_tag, fr_t::from_u64(std::uint64_t(1) << 40));
  EXPECT_EQ(porep::snap_phi(a, b), gadgets::poseidon_hash(gadgets::poseidon_gen_randomness_params(), in));
  EXPECT_NE(porep::snap_phi(a, b), gadgets::poseidon_hash(in));
  EXPECT_EQ(porep::snap_rho(a, 11), porep::snap_phi(a, b));
}

namespace {

void expect_failure(const porep::snap_shape_t& s, const porep::snap_public_t& pub,
                    const porep::snap_partition_proof_t& p, const std::string& element) {
  const auto f = porep::check_snap_partition(s, pub, p);
  ASSERT_TRUE(f) << "expected a failure at " << element;
  EXPECT_EQ(f->element, element) << f->reason;
}

}  // namespace

TEST(SnapVanilla, GeneratedPartitionsPassTheChecker) {
  const std::uint64_t seed = test::seed("SnapVanilla.GeneratedPartitionsPassTheChecker");
  for (std::uint64_t bytes : {kib, 2 * kib, 16 * kib, 32 * kib, 8 * mib}) {
    const auto s = snap_shape_for(bytes);
    const porep::snap_sector_t sector(s, seed);
    for (unsigned k = 0; k < s.partitions; ++k) {
      const auto pub = sector.public_inputs(k);
      const auto proof = sector.partition_proof(k);
      const auto f = porep::check_snap_partition(s, pub, proof);
      EXPECT_FALSE(f) << bytes << " bytes, partition " << k << ": " << f->element << ": " << f->reason;
      // Another partition's public inputs draw other challenges.
      if (s.partitions > 1) {
        auto other = pub;
        other.k = (k + 1) % s.partitions;
        EXPECT_TRUE(porep::check_snap_partition(s, other, proof)) << bytes;
      }
    }
  }
}

// The repeated-block model against full trees built here over the nodes it
// stands for (old replica: the seeded block repeated; data: the seeded first
// block, zero after; the new replica from upstream's encoding), at 16 KiB and
// 8 MiB: the same commitments and, per partition, the same apex leaves,
// leaves and paths. At 32 GiB (no full tree possible) its partitions pass
// the checker.
TEST(SnapVanilla, RepeatedBlocksEqualFullTreesOverTheSameNodes) {
  const std::uint64_t seed = test::seed("SnapVanilla.RepeatedBlocksEqualFullTreesOverTheSameNodes");
  using porep::tree_hash_t;
  for (std::uint64_t bytes : {16 * kib, 8 * mib}) {
    const auto s = snap_shape_for(bytes);
    const std::uint64_t n = s.nodes, block = porep::snap_block_nodes(s);
    EXPECT_EQ(block, bytes == 16 * kib ? 8u : std::uint64_t(1) << 15) << bytes;
    const porep::snap_sector_t sector(s, seed, std::nullopt, porep::snap_sector_model_t::repeated_blocks);
    std::vector<fr_t> old_replica(n), data(n, fr_t::zero()), new_replica(n);
    for (std::uint64_t i = 0; i < n; ++i) old_replica[i] = porep::prf_fr(seed, "snap old", 0, 0, i % block);
    for (std::uint64_t i = 0; i < block; ++i) data[i] = porep::prf_fr(seed, "snap data", 0, 0, i);
    const fr_t comm_c = porep::prf_fr(seed, "snap comm_c", 0);
    const porep::merkle_tree_t r_old(tree_hash_t::poseidon, s.tree_r_arities(), old_replica);
    const porep::merkle_tree_t d_new(tree_hash_t::sha256, std::vector<unsigned>(s.challenge_bit_len, 2u), data);
    const fr_t in_old[2] = {comm_c, r_old.root()};
    const fr_t comm_r_old = gadgets::poseidon_hash(in_old);
    const fr_t phi = porep::snap_phi(d_new.root(), comm_r_old);
    const unsigned h = s.h_default();
    for (std::uint64_t i = 0; i < n; ++i)
      new_replica[i] = old_replica[i] + data[i] * porep::snap_rho(phi, std::uint32_t(i >> (s.challenge_bit_len - h)));
    const porep::merkle_tree_t r_new(tree_hash_t::poseidon, s.tree_r_arities(), new_replica);
    const fr_t in_new[2] = {comm_c, r_new.root()};
    const fr_t comm_r_new = gadgets::poseidon_hash(in_new);
    for (unsigned k = 0; k < s.partitions; ++k) {
      const auto pub = sector.public_inputs(k);
      EXPECT_EQ(pub.comm_r_old, comm_r_old) << bytes;
      EXPECT_EQ(pub.comm_d_new, d_new.root()) << bytes;
      EXPECT_EQ(pub.comm_r_new, comm_r_new) << bytes;
      const auto proof = sector.partition_proof(k);
      for (unsigned i = 0; i < s.apex_leaves; ++i)
        EXPECT_EQ(proof.apex_leaves[i], d_new.node(s.apex_height(), std::uint64_t(k) * s.apex_leaves + i)) << i;
      const auto challenges = porep::snap_challenges(s, comm_r_new, k);
      ASSERT_EQ(proof.challenges.size(), challenges.size());
      for (std::size_t j = 0; j < challenges.size(); ++j) {
        const std::uint32_t c = challenges[j];
        const auto& cp = proof.challenges[j];
        EXPECT_EQ(cp.r_old.leaf, r_old.leaf(c));
        EXPECT_EQ(cp.d_new.leaf, d_new.leaf(c));
        EXPECT_EQ(cp.r_new.leaf, r_new.leaf(c));
        EXPECT_EQ(cp.r_old.path.siblings, r_old.path(c).siblings) << bytes << " challenge " << j;
        EXPECT_EQ(cp.d_new.path.siblings, d_new.path(c).siblings) << bytes << " challenge " << j;
        EXPECT_EQ(cp.r_new.path.siblings, r_new.path(c).siblings) << bytes << " challenge " << j;
      }
      const auto f = porep::check_snap_partition(s, pub, proof);
      EXPECT_FALSE(f) << bytes << " partition " << k << ": " << f->element << ": " << f->reason;
    }
  }
  const auto s = snap_shape_for(32 * gib);
  const porep::snap_sector_t sector(s, seed, std::nullopt, porep::snap_sector_model_t::repeated_blocks);
  for (unsigned k : {0u, 15u}) {
    const auto f = porep::check_snap_partition(s, sector.public_inputs(k), sector.partition_proof(k));
    EXPECT_FALSE(f) << "32 GiB partition " << k << ": " << f->element << ": " << f->reason;
  }
  EXPECT_THROW(porep::snap_sector_t(s, seed), std::invalid_argument) << "the random model stops at 512 MiB";
}

TEST(SnapVanilla, TheCheckerNamesTheCorruptedElement) {
  const std::uint64_t seed = test::seed("SnapVanilla.TheCheckerNamesTheCorruptedElement");
  const auto s = snap_shape_for(16 * kib);
  const porep::snap_sector_t sector(s, seed);
  const auto pub = sector.public_inputs(1);
  const auto good = sector.partition_proof(1);
  const fr_t one = fr_t::one();
  {
    auto p = good;
    p.comm_c += one;
    expect_failure(s, pub, p, "comm_c");
  }
  {
    auto p = good;
    p.challenges[3].r_old.path.siblings[1][5] += one;
    expect_failure(s, pub, p, "challenge_proofs[3].proof_r_old");
  }
  {
    auto p = good;
    p.challenges[4].r_new.leaf += one;
    expect_failure(s, pub, p, "challenge_proofs[4].proof_r_new");
  }
  {
    auto p = good;
    p.challenges[2].d_new.path.siblings[0][0] += one;
    expect_failure(s, pub, p, "challenge_proofs[2].proof_d_new");
  }
  {
    auto p = good;
    p.challenges[7].d_new.leaf_index ^= 1;
    expect_failure(s, pub, p, "challenge_proofs[7].proof_d_new");
  }
  {
    auto p = good;
    p.challenges[5].r_new.root += one;
    expect_failure(s, pub, p, "challenge_proofs[5].proof_r_new.root");
  }
  {
    auto p = good;
    p.challenges.pop_back();
    expect_failure(s, pub, p, "challenge_proofs");
  }
  {
    auto p = good;
    p.challenges[1].r_old.path.siblings[2].pop_back();
    expect_failure(s, pub, p, "challenge_proofs[1].proof_r_old.path[2]");
  }
  {
    // An apex leaf no challenge passes through is caught by the apex tree.
    auto p = good;
    std::vector<bool> touched(s.apex_leaves);
    for (const auto& c : p.challenges) touched[(c.d_new.leaf_index >> s.apex_height()) & (s.apex_leaves - 1)] = true;
    std::size_t j = 0;
    while (touched[j]) ++j;
    p.apex_leaves[j] += one;
    expect_failure(s, pub, p, "apex_leafs");
    // One a challenge passes through is named.
    auto q = good;
    const std::size_t t = (q.challenges[0].d_new.leaf_index >> s.apex_height()) & (s.apex_leaves - 1);
    q.apex_leaves[t] += one;
    expect_failure(s, pub, q, "apex_leafs[" + std::to_string(t) + "]");
  }
  {
    auto bad = pub;
    bad.h = 10;
    expect_failure(s, bad, good, "h");
    bad = pub;
    bad.k = 2;
    expect_failure(s, bad, good, "k");
  }
}
