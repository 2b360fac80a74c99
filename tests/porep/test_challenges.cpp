// PoRep challenge derivations (rust-fil-proofs storage-proofs-porep
// stacked/vanilla/challenges.rs): keyed BLAKE2b and the ChaCha20 stream they
// use, upstream's hard-coded synthetic vector, and values from an independent
// Python model (hashlib.blake2b, cryptography's ChaCha20, hashlib.sha256) that
// reproduces that vector too.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

#include "porep/blake2b.hpp"
#include "porep/chacha20_stream_t.hpp"
#include "porep/challenges.hpp"
#include "porep/domain.hpp"
#include "porep/labeling.hpp"
#include "porep/synthetic_challenges.hpp"
#include "test_seed.hpp"

namespace cuzk::porep {
namespace {

using ff::fr_t;
using u64s = std::vector<std::uint64_t>;

std::string hex(std::span<const std::uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto x : b) s += d[x >> 4], s += d[x & 15];
  return s;
}

bytes32_t from_hex(std::string_view h) {
  bytes32_t b{};
  for (std::size_t i = 0; i < 32; ++i) b[i] = std::uint8_t(std::stoul(std::string(h.substr(2 * i, 2)), nullptr, 16));
  return b;
}

std::span<const std::uint8_t> ascii(std::string_view s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

// Values the Python model was run on.
const fr_t model_replica_id = *fr_t::from_bytes_le(from_hex("8877665544332211efcdab907856341200000000000000000000000000000000"));
const fr_t model_comm_r = *fr_t::from_bytes_le(from_hex("0000000000000000000000001032547698badcfe000000000000000000000000"));

TEST(PorepBlake2b, KeyedAndShortDigestsMatchReference) {
  // RFC 7693 / BLAKE2 KAT: key 00..3f, empty message, 64-byte digest.
  std::array<std::uint8_t, 64> key;
  for (int i = 0; i < 64; ++i) key[i] = std::uint8_t(i);
  std::array<std::uint8_t, 64> out;
  blake2b(out, {}, key);
  EXPECT_EQ(hex(out),
            "10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786"
            "b5e996e8f0f4eb981fc214b005f42d2ff4233499391653df7aefcbc13fc51568");
  // hashlib.blake2b(bytes(range(64)), digest_size=32, key=<generation tag>).
  std::array<std::uint8_t, 32> k32;
  blake2b(k32, std::span(key.data(), 64), ascii("filecoin.io|PoRep|1|Synthetic|1|Generation"));
  EXPECT_EQ(hex(k32), "676f66f347f9d90a7de68e7dc3f9f111e4566d9c0ea6686e07ee2182a3fd8902");
  // More than one message block, keyed, 20-byte digest; and unkeyed 512.
  std::array<std::uint8_t, 200> msg;
  for (int i = 0; i < 200; ++i) msg[i] = std::uint8_t(i);
  std::array<std::uint8_t, 20> d20;
  blake2b(d20, msg, ascii("k"));
  EXPECT_EQ(hex(d20), "8c564fee60f073e6779145fac7983d9e087e5d88");
  EXPECT_EQ(hex(blake2b_512(msg)),
            "fb3c1f0f56a56f8e316fdf5d853c8c872c39635d083634c3904fc3ac07d1b578"
            "e85ff0e480e92d44ade33b62e893ee32343e79ddf6ef292e89b582d312502314");
  EXPECT_THROW(blake2b(std::span<std::uint8_t>(), msg), std::invalid_argument);
}

TEST(PorepChacha20Stream, Rfc8439EncryptionAndSeeking) {
  // RFC 8439 §2.4.2: the sunscreen text is encrypted from block counter 1,
  // i.e. from keystream byte 64.
  std::array<std::uint8_t, 32> key;
  for (int i = 0; i < 32; ++i) key[i] = std::uint8_t(i);
  const std::array<std::uint8_t, 12> nonce{0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0};
  const std::string_view pt =
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
  chacha20_stream_t s(key, nonce);
  s.seek(64);
  std::vector<std::uint8_t> ks(pt.size());
  s.read(ks);
  for (std::size_t i = 0; i < pt.size(); ++i) ks[i] ^= std::uint8_t(pt[i]);
  EXPECT_EQ(hex(ks),
            "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593dabcd62b357"
            "1639d624e65152ab8f530c359f0861d807ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
            "5af90bbf74a35be6b40b8eedf2785e42874d");
  // An unaligned window straddling a block boundary (cryptography's ChaCha20).
  const std::array<std::uint8_t, 12> synth_nonce{'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
  chacha20_stream_t t(key, synth_nonce);
  t.seek(100);
  std::array<std::uint8_t, 40> w;
  t.read(w);
  EXPECT_EQ(hex(w), "afd2be92bf4fcc94270654ab1cd2cdde26255037170f538427cd2c65d058b25dff1a4ac288c3584b");
  EXPECT_THROW(t.seek(std::uint64_t(64) << 32), std::out_of_range);
}

TEST(PorepSyntheticChallenges, UpstreamHardcodedVector) {
  // challenges.rs test_synth_challenges_against_hardcoded.
  synth_challenge_generator_t g(1 << 10, fr_t::from_u64(55), fr_t::from_u64(101), 21);
  const u64s synth{178, 297, 869, 211, 875, 477, 94, 781, 124, 332, 856, 801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
  for (std::uint64_t i = 0; i < synth.size(); ++i) EXPECT_EQ(g.synth_challenge(i), synth[i]) << "i = " << i;
  EXPECT_THROW(g.synth_challenge(21), std::out_of_range);
  bytes32_t rand;
  rand.fill(1);
  EXPECT_EQ(g.partition_challenges(10, rand, 0), (u64s{176, 781, 801, 986, 290, 211, 692, 856, 986, 332}));
}

TEST(PorepSyntheticChallenges, ProductionSizeMatchesIndependentModel) {
  // 32 GiB (2^30 nodes, 2^18 synthetic challenges), seed 07^32, partition 3 of 10 × 18.
  bytes32_t seed;
  seed.fill(7);
  challenge_shape_t shape{std::uint64_t(1) << 30, 10, 18, porep_feature_t::synthetic};
  EXPECT_EQ(partition_challenges(shape, model_replica_id, model_comm_r, seed, 3),
            (u64s{78057413, 559979473, 855473143, 999211305, 970445245, 887292309, 942831311, 507959432, 210297754,
                  811361396, 20491490, 348715066, 321727587, 208092840, 609334996, 110022615, 1039447827, 986262853}));
  // 256 nodes: the synthetic set is the whole sector (min(nodes, 2^18)).
  synth_challenge_generator_t small(256, model_replica_id, model_comm_r);
  EXPECT_EQ(small.count(), 256u);
  EXPECT_EQ(small.partition_challenges(2, seed, 0), (u64s{79, 251}));
}

TEST(PorepSyntheticChallenges, PartitionsSliceOneSelectionStream) {
  // Like upstream's test_synth_challenges_32gib: partition k is the k-th
  // chunk of the challenges drawn as one partition.
  std::mt19937_64 rng(test::seed("PorepSyntheticChallenges.PartitionsSliceOneSelectionStream"));
  bytes32_t seed;
  for (auto& b : seed) b = std::uint8_t(rng());
  const fr_t rid = fr_t::from_u64(rng()), cr = fr_t::from_u64(rng());
  synth_challenge_generator_t g(std::uint64_t(1) << 30, rid, cr);
  const auto all = g.partition_challenges(180, seed, 0);
  for (unsigned k = 0; k < 10; ++k) {
    const auto part = g.partition_challenges(18, seed, k);
    EXPECT_EQ(part, u64s(all.begin() + 18 * k, all.begin() + 18 * (k + 1))) << "k = " << k;
    for (auto c : part) EXPECT_TRUE(c >= 1 && c < (std::uint64_t(1) << 30));
  }
}

TEST(PorepNiChallenges, MatchIndependentModelAndIgnoreSeed) {
  bytes32_t a{}, b;
  b.fill(0xaa);
  challenge_shape_t small{std::uint64_t(1) << 18, 13, 2, porep_feature_t::non_interactive};
  EXPECT_EQ(partition_challenges(small, model_replica_id, model_comm_r, a, 5), (u64s{63476, 79872}));
  EXPECT_EQ(partition_challenges(small, model_replica_id, model_comm_r, b, 5), (u64s{63476, 79872}));
  challenge_shape_t big{std::uint64_t(1) << 30, 126, 18, porep_feature_t::non_interactive};
  const auto last = partition_challenges(big, model_replica_id, model_comm_r, a, 125);
  ASSERT_EQ(last.size(), 18u);
  EXPECT_EQ(u64s(last.begin(), last.begin() + 4), (u64s{260712552, 219909861, 166767290, 149650085}));
  EXPECT_THROW(partition_challenges(big, model_replica_id, model_comm_r, a, 126), std::invalid_argument);
}

TEST(PorepChallenges, InteractiveDispatchMatchesDeriveChallenge) {
  std::mt19937_64 rng(test::seed("PorepChallenges.InteractiveDispatchMatchesDeriveChallenge"));
  bytes32_t seed;
  for (auto& x : seed) x = std::uint8_t(rng());
  const fr_t rid = fr_t::from_u64(rng());
  for (auto v : {api_version_t::v1_0, api_version_t::v1_1, api_version_t::v1_2}) {
    const auto p = sector_params_for(std::uint64_t(32) << 30, v);
    const auto got = partition_challenges(p, rid, fr_t::from_u64(rng()), seed, 7);
    ASSERT_EQ(got.size(), 18u);
    for (unsigned i = 0; i < 18; ++i) EXPECT_EQ(got[i], derive_challenge(rid, seed, 18 * 7 + i, p.nodes));
    // The comm_r-free overload is the same for interactive sectors.
    EXPECT_EQ(partition_challenges(p, rid, seed, 7), got);
  }
  // ...and refuses the features whose challenges need comm_r.
  const auto syn = sector_params_for(8 << 20, api_version_t::v1_2, porep_feature_t::synthetic);
  EXPECT_THROW(partition_challenges(syn, rid, seed, 0), std::invalid_argument);
  EXPECT_NE(partition_challenges(syn, rid, fr_t::from_u64(1), seed, 0),
            partition_challenges(syn, rid, fr_t::from_u64(2), seed, 0));
}

}  // namespace
}  // namespace cuzk::porep
