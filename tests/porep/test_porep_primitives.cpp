// Known-answer tests for the PoRep native primitives: ChaCha (RFC 8439),
// BLAKE2b (RFC 7693), the stacked graph and SDR labels (rust-fil-proofs
// values quoted in FILECOIN_POREP.md §4-§6).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "gadgets/sha256_native.hpp"
#include "porep/blake2b.hpp"
#include "porep/chacha.hpp"
#include "porep/labeling.hpp"
#include "porep/sector_params_t.hpp"
#include "porep/stacked_graph_t.hpp"

namespace cuzk::porep {
namespace {

std::string hex(std::span<const std::uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto x : b) s += d[x >> 4], s += d[x & 15];
  return s;
}

std::array<std::uint32_t, 16> chacha_state(const std::array<std::uint8_t, 32>& key, std::uint32_t counter,
                                           const std::array<std::uint32_t, 3>& nonce_words) {
  std::array<std::uint32_t, 16> s{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  for (int i = 0; i < 8; ++i) std::memcpy(&s[4 + i], key.data() + 4 * i, 4);  // x86: LE
  s[12] = counter;
  for (int i = 0; i < 3; ++i) s[13 + i] = nonce_words[i];
  return s;
}

TEST(PorepChacha, Rfc8439BlockFunction) {
  // RFC 8439 §2.3.2: key 00..1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00, counter 1.
  std::array<std::uint8_t, 32> key;
  for (int i = 0; i < 32; ++i) key[i] = std::uint8_t(i);
  auto out = chacha_block(chacha_state(key, 1, {0x09000000, 0x4a000000, 0}), 20);
  const std::array<std::uint32_t, 16> want = {0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3, 0xc7f4d1c7, 0x0368c033,
                                              0x9aaa2204, 0x4e6cd4c3, 0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
                                              0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2};
  EXPECT_EQ(out, want);
}

TEST(PorepChacha, Rfc8439ZeroKeyKeystream) {
  // RFC 8439 Appendix A.1, test vector #1: all-zero key and nonce, counter 0.
  auto out = chacha_block(chacha_state({}, 0, {0, 0, 0}), 20);
  std::array<std::uint8_t, 64> bytes;
  std::memcpy(bytes.data(), out.data(), 64);
  EXPECT_EQ(hex(bytes),
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
            "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586");
}

TEST(PorepChacha, RngTakesLowWordFirstAndCrossesBlocks) {
  std::array<std::uint8_t, 32> seed{};
  seed[0] = 7;
  chacha8_rng_t a(seed), b(seed);
  std::array<std::uint32_t, 16> in{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, 7};
  auto blk0 = chacha_block(in, 8);
  in[12] = 1;
  auto blk1 = chacha_block(in, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(a.next_u64(), std::uint64_t(blk0[2 * i + 1]) << 32 | blk0[2 * i]);
  EXPECT_EQ(a.next_u32(), blk1[0]);
  for (int i = 0; i < 16; ++i) b.next_u32();
  EXPECT_EQ(b.next_u32(), blk1[0]);
}

TEST(PorepBlake2b, Rfc7693Vectors) {
  const std::uint8_t abc[] = {'a', 'b', 'c'};
  EXPECT_EQ(hex(blake2b_512(abc)),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
            "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
  EXPECT_EQ(hex(blake2b_512({})),
            "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
            "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce");
}

TEST(PorepParams, TableOfSectorSizes) {
  auto p = sector_params_for(parse_sector_size("32GiB"));
  EXPECT_EQ(p.nodes, 1ull << 30);
  EXPECT_EQ(p.layers, 11u);
  EXPECT_EQ(p.partitions, 10u);
  EXPECT_EQ(p.challenges_per_partition, 18u);
  EXPECT_EQ(p.tree_cr_arities(), std::vector<unsigned>({8, 8, 8, 8, 8, 8, 8, 8, 8, 8}));
  EXPECT_EQ(p.tree_d_depth, 30u);
  EXPECT_EQ(p.porep_id()[0], 8);  // §1: 32 GiB V1_1 porep_id = 08 00…00
  auto q = sector_params_for(parse_sector_size("64GiB"));
  EXPECT_EQ(q.tree_cr_arities().size(), 11u);
  EXPECT_EQ(q.tree_cr_arities().back(), 2u);
  EXPECT_EQ(sector_params_for(parse_sector_size("8MiB")).tree_cr_arities().size(), 6u);
  EXPECT_EQ(parse_sector_size("2048"), 2048u);
  EXPECT_THROW(parse_sector_size("4KiB"), std::invalid_argument);
  EXPECT_THROW(parse_sector_size("32XB"), std::invalid_argument);
  EXPECT_THROW(parse_sector_size(""), std::invalid_argument);
}

TEST(PorepGraph, Parents32GiBWorkedExample) {
  // FILECOIN_POREP.md §6: node 980979701 of a 32 GiB V1_1 sector (porep_id 08 00…).
  stacked_graph_t g(sector_params_for(std::uint64_t(32) << 30));
  EXPECT_EQ(g.drg_parents(980979701),
            drg_parents_t({980979700, 980978077, 980952352, 980979699, 312222476, 979455093}));
  EXPECT_EQ(g.exp_parents(980979701), exp_parents_t({749539807, 182735280, 276707672, 247452191, 626879568,
                                                     527945222, 307523740, 346272975}));
}

// SHA-256 of the parent cache file: per node 14 × u32 LE (6 DRG then 8 expander).
std::string parent_cache_digest(const stacked_graph_t& g) {
  gadgets::sha256_ctx_t ctx;
  for (std::uint64_t v = 0; v < g.nodes(); ++v) {
    std::array<std::uint8_t, 56> rec;
    auto d = g.drg_parents(v);
    auto e = g.exp_parents(v);
    for (unsigned i = 0; i < 14; ++i) {
      std::uint32_t x = std::uint32_t(i < 6 ? d[i] : e[i - 6]);
      std::memcpy(rec.data() + 4 * i, &x, 4);
    }
    ctx.update(rec);
  }
  return hex(ctx.finish());
}

TEST(PorepGraph, ParentCacheDigests) {
  // rust-fil-proofs storage-proofs-porep/parent_cache.json, as quoted (abridged) in FILECOIN_POREP.md §4.
  auto d0 = parent_cache_digest(stacked_graph_t(sector_params_for(2048, api_version_t::v1_0)));
  EXPECT_EQ(d0.substr(0, 8), "3da49221");
  EXPECT_EQ(d0.substr(59), "1750d");
  auto d5 = parent_cache_digest(stacked_graph_t(sector_params_for(2048, api_version_t::v1_1)));
  EXPECT_EQ(d5.substr(0, 8), "84005770");
  EXPECT_EQ(d5.substr(59), "25b97");
}

ff::fr_t last_label_2k_11_layers(std::uint8_t porep_byte, api_version_t v) {
  bytes32_t porep_id;
  porep_id.fill(porep_byte);
  bytes32_t rid;
  rid.fill(9);
  auto labels = label_all_layers(stacked_graph_t(64, porep_id, v), *ff::fr_t::from_bytes_le(rid), 11);
  return labels[10][63];
}

TEST(PorepLabels, CreateLabels2KiBVectors) {
  // rust-fil-proofs create_label/multi.rs test_create_labels (limbs as in FILECOIN_POREP.md §5).
  EXPECT_EQ(last_label_2k_11_layers(0x00, api_version_t::v1_0).to_hex(),
            "0462f4f4f1a68d37e3d51b9afa5ac2b3ea81a283d106485ed3faa96b9a0fba04");
  EXPECT_EQ(last_label_2k_11_layers(0x7B, api_version_t::v1_1).to_hex(),
            "06021188c7a71cb53448959d495490bc777a2e4d7769119fabb3f38bb70defcf");
}

TEST(PorepLabels, RejectsWrongParentCount) {
  std::array<ff::fr_t, 6> six{};
  EXPECT_NO_THROW(compute_label(ff::fr_t::one(), 1, 5, six));
  EXPECT_THROW(compute_label(ff::fr_t::one(), 2, 5, six), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::porep
