// Curio's PoSt vanilla proofs: bincode(FallbackPoStSectorProof) as
// rust-filecoin-proofs-api post.rs generate_single_vanilla_proof writes it
// (filecoin-proofs types/mod.rs, storage-proofs-post fallback/vanilla.rs,
// storage-proofs-core merkle/proof.rs). Round trips for every registered
// proof, the byte layout spelled out against the Rust struct order, exact
// sizes (FILECOIN_FORMATS.md §3: "a 32 GiB sector's blob is about 25 KB"),
// and corruptions refused naming the field and byte offset.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "filecoin/post_bincode.hpp"
#include "porep/domain.hpp"
#include "porep/post_challenges.hpp"
#include "porep/post_vanilla.hpp"
#include "test_seed.hpp"

namespace cuzk::filecoin {
namespace {

using porep::post_sector_proof_t;
constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;

std::span<const std::uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

porep::bytes32_t randomness_of(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  porep::bytes32_t r;
  for (auto& b : r) b = std::uint8_t(rng());
  r[31] &= 0x3f;
  return r;
}

// A sector's blob as a provider would send it: its derived challenges opened.
post_sector_proof_t make_sector(const registered_post_proof_t& rp, std::uint64_t sector_id, std::uint64_t seed,
                                std::uint64_t sector_index = 0) {
  const auto shape = rp.shape();
  const auto leaves = porep::post_sector_challenges(shape, rp.api_version, randomness_of(seed), sector_id, sector_index);
  // Full trees at 2 KiB only; the others sparse, to keep the test quick.
  const auto model = rp.sector_bytes == 2 * kib ? porep::post_tree_model_t::full : porep::post_tree_model_t::sparse;
  return porep::generate_post_sector(shape, sector_id, leaves, seed, model);
}

void expect_same(const post_sector_proof_t& a, const post_sector_proof_t& b) {
  EXPECT_EQ(a.sector_id, b.sector_id);
  EXPECT_EQ(a.comm_r, b.comm_r);
  EXPECT_EQ(a.comm_c, b.comm_c);
  EXPECT_EQ(a.comm_r_last, b.comm_r_last);
  ASSERT_EQ(a.challenges.size(), b.challenges.size());
  for (std::size_t j = 0; j < a.challenges.size(); ++j) {
    EXPECT_EQ(a.challenges[j].leaf_index, b.challenges[j].leaf_index);
    EXPECT_EQ(a.challenges[j].leaf, b.challenges[j].leaf);
    EXPECT_EQ(a.challenges[j].path.siblings, b.challenges[j].path.siblings);
  }
}

TEST(PostBincode, RoundTripsEveryRegisteredProof) {
  const auto seed = test::seed("PostBincode.RoundTripsEveryRegisteredProof");
  for (const auto& rp : registered_post_proofs()) {
    SCOPED_TRACE(rp.name());
    const auto s = make_sector(rp, seed % 100000 + rp.id, seed);
    const std::string bin = write_post_sector_bincode(s, rp);
    EXPECT_EQ(bin.size(), post_sector_bincode_size(rp));
    const auto back = read_post_sector_bincode(bytes(bin), rp);
    expect_same(back, s);
    EXPECT_EQ(write_post_sector_bincode(back, rp), bin);
    // What was read is what the checker accepts.
    EXPECT_EQ(porep::check_post_sector(rp.shape(), rp.api_version, randomness_of(seed), 0, back, "sector"),
              std::nullopt);
  }
}

TEST(PostBincode, ExactSizes) {
  // Per MerkleProof: tag 4, root and leaf 64, and per InclusionPath 8 plus per
  // level 8 (hashes length) + 32 * (arity - 1) + 8 (index). Around them:
  // sector_id 8, comm_r 32, sectors length 8, inclusion_proofs length 8,
  // comm_c 32, comm_r_last 32 = 120.
  const std::uint64_t level8 = 8 + 7 * 32 + 8;                       // 240
  const std::uint64_t single_2k = 4 + 64 + 8 + 2 * level8;           // 556: 64 leaves, 2 levels
  const std::uint64_t sub_32g = 4 + 64 + (8 + 9 * level8) + (8 + level8);  // 2,484: 8^9 x 8
  const std::uint64_t top_64g = sub_32g + 8 + (8 + 32 + 8);          // 2,540: then x 2
  EXPECT_EQ(sub_32g, 2484u);
  EXPECT_EQ(post_sector_bincode_size(post_proof_by_name("StackedDrgWindow2KiBV1")), 120 + 10 * single_2k);
  EXPECT_EQ(post_sector_bincode_size(post_proof_by_name("StackedDrgWindow32GiBV1_1")), 24960u);
  EXPECT_EQ(post_sector_bincode_size(post_proof_by_name("StackedDrgWindow32GiBV1")), 120 + 10 * sub_32g);
  EXPECT_EQ(post_sector_bincode_size(post_proof_by_name("StackedDrgWindow64GiBV1_1")), 120 + 10 * top_64g);
  EXPECT_EQ(post_sector_bincode_size(post_proof_by_name("StackedDrgWinning32GiBV1")), 120 + 66 * sub_32g);
  // And a real 32 GiB Window blob has that length.
  const auto& rp = post_proof_by_name("StackedDrgWindow32GiBV1_1");
  EXPECT_EQ(write_post_sector_bincode(make_sector(rp, 1234, 5), rp).size(), 24960u);
}

std::uint64_t le_at(const std::string& b, std::size_t at, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t(std::uint8_t(b[at + i])) << (8 * i);
  return v;
}
std::string fr_at(const ff::fr_t& x) {
  const auto b = porep::to_le_bytes(x);
  return std::string(b.begin(), b.end());
}

// The layout walked by hand: FallbackPoStSectorProof {sector_id, comm_r,
// vanilla_proof: Proof {sectors: Vec<SectorProof {inclusion_proofs: Vec<MerkleProof>,
// comm_c, comm_r_last}>}}, MerkleProof = ProofData tag then the variant's fields.
TEST(PostBincode, LayoutFollowsRustFieldOrder) {
  for (const char* name : {"StackedDrgWindow2KiBV1", "StackedDrgWindow32GiBV1_1", "StackedDrgWindow64GiBV1_1"}) {
    SCOPED_TRACE(name);
    const auto& rp = post_proof_by_name(name);
    const auto s = make_sector(rp, 0x0102030405060708, 11);
    const std::string b = write_post_sector_bincode(s, rp);
    const auto ar = rp.shape().sector.tree_cr_arities();
    std::size_t at = 0;
    EXPECT_EQ(le_at(b, at, 8), 0x0102030405060708u);
    at += 8;
    EXPECT_EQ(b.substr(at, 32), fr_at(s.comm_r));
    at += 32;
    EXPECT_EQ(le_at(b, at, 8), 1u);  // sectors: one SectorProof
    at += 8;
    EXPECT_EQ(le_at(b, at, 8), 10u);  // inclusion_proofs
    at += 8;
    for (const auto& c : s.challenges) {
      const std::uint64_t tag = le_at(b, at, 4);
      at += 4;
      EXPECT_EQ(tag, ar.size() == 2 ? 0u : ar.back() == 2 ? 2u : 1u);
      auto root_leaf = [&] {
        EXPECT_EQ(b.substr(at, 32), fr_at(s.comm_r_last));
        at += 32;
        EXPECT_EQ(b.substr(at, 32), fr_at(c.leaf));
        at += 32;
      };
      if (tag == 0) root_leaf();
      // Single: one path of all levels; Sub/Top: base levels, then 1 and 1.
      std::vector<std::size_t> parts = tag == 0   ? std::vector<std::size_t>{ar.size()}
                                       : tag == 1 ? std::vector<std::size_t>{ar.size() - 1, 1}
                                                  : std::vector<std::size_t>{ar.size() - 2, 1, 1};
      std::size_t level = 0;
      std::uint64_t node = c.leaf_index;
      for (auto n : parts) {
        EXPECT_EQ(le_at(b, at, 8), n);
        at += 8;
        for (std::size_t k = 0; k < n; ++k, ++level) {
          EXPECT_EQ(le_at(b, at, 8), ar[level] - 1);
          at += 8;
          for (const auto& h : c.path.siblings[level]) {
            EXPECT_EQ(b.substr(at, 32), fr_at(h));
            at += 32;
          }
          EXPECT_EQ(le_at(b, at, 8), node % ar[level]);  // index: usize
          at += 8;
          node /= ar[level];
        }
      }
      if (tag != 0) root_leaf();
    }
    EXPECT_EQ(b.substr(at, 32), fr_at(s.comm_c));
    at += 32;
    EXPECT_EQ(b.substr(at, 32), fr_at(s.comm_r_last));
    at += 32;
    EXPECT_EQ(at, b.size());
  }
}

// Read `bin` as `rp`, expecting a vanilla_format_error for `element` whose
// message holds `detail`.
void expect_refused(const std::string& bin, const registered_post_proof_t& rp, const std::string& element,
                    const std::string& detail = "") {
  try {
    read_post_sector_bincode(bytes(bin), rp);
    ADD_FAILURE() << "accepted; expected an error at " << element;
  } catch (const porep::vanilla_format_error& e) {
    EXPECT_EQ(e.element(), element) << e.what();
    EXPECT_NE(std::string(e.what()).find(detail), std::string::npos) << e.what() << " lacks " << detail;
  }
}

void put_u64(std::string& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = char(std::uint8_t(v >> (8 * i)));
}

TEST(PostBincode, CorruptionsNameFieldAndOffset) {
  const auto& rp = post_proof_by_name("StackedDrgWindow2KiBV1");
  const auto s = make_sector(rp, 77, 3);
  const std::string good = write_post_sector_bincode(s, rp);
  const std::string ip = "vanilla_proof.sectors[0].inclusion_proofs";
  // 2 KiB proof j starts at 56 + 556 j: tag 4, root 32, leaf 32, path length 8, levels of 240.
  auto proof_at = [](std::size_t j) { return 56 + 556 * j; };
  std::string b;

  for (std::size_t cut = 0; cut < good.size(); ++cut)
    EXPECT_THROW(read_post_sector_bincode(bytes(good.substr(0, cut)), rp), porep::vanilla_format_error) << cut;
  expect_refused(good + "x", rp, "FallbackPoStSectorProof", "1 bytes after comm_r_last (at byte 5680)");
  expect_refused(good, post_proof_by_name("StackedDrgWindow8MiBV1"), ip + "[0].data.Single.path.path", "at byte 124");
  expect_refused(good, post_proof_by_name("StackedDrgWinning2KiBV1"), ip, "takes 66");

  b = good, b[0 + 8 + 31] = char(0xff);
  expect_refused(b, rp, "comm_r", "not a canonical field element (at byte 8)");
  b = good, put_u64(b, 40, 2);
  expect_refused(b, rp, "vanilla_proof.sectors", "a length of 2 at byte 40");
  b = good, put_u64(b, 48, 9);
  expect_refused(b, rp, ip, "a length of 9 at byte 48");
  b = good, b[proof_at(4)] = 1;
  expect_refused(b, rp, ip + "[4].data", "ProofData tag 1 at byte " + std::to_string(proof_at(4)));
  b = good, put_u64(b, proof_at(2) + 68, 3);
  expect_refused(b, rp, ip + "[2].data.Single.path.path", "a length of 3");
  b = good, put_u64(b, proof_at(2) + 76 + 240, 6);
  expect_refused(b, rp, ip + "[2].data.Single.path.path[1].hashes", "a length of 6");
  b = good, put_u64(b, proof_at(2) + 76 + 240 + 232, 8);
  expect_refused(b, rp, ip + "[2].data.Single.path.path[1].index", "8 at byte " + std::to_string(proof_at(2) + 548));
  const std::size_t h3 = proof_at(5) + 76 + 8 + 3 * 32;  // level 0, hash 3
  b = good;
  for (int i = 0; i < 32; ++i) b[h3 + i] = char(0xff);
  expect_refused(b, rp, ip + "[5].data.Single.path.path[0].hashes[3]", "at byte " + std::to_string(h3));
  // Field elements: r itself is not canonical, r - 1 is.
  const porep::bytes32_t r_le = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                 0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                                 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
  b = good, std::copy(r_le.begin(), r_le.end(), b.begin() + proof_at(1) + 36);
  expect_refused(b, rp, ip + "[1].data.Single.leaf", "not a canonical");
  b[proof_at(1) + 36] = 0;  // r - 1
  EXPECT_NO_THROW(read_post_sector_bincode(bytes(b), rp));
  // A root that is not comm_r_last, and a comm_r_last that none of the roots is.
  b = good, b[proof_at(7) + 4] ^= 1;
  expect_refused(b, rp, ip + "[7].data.Single.root", "at byte " + std::to_string(proof_at(7) + 4));
  b = good, b[good.size() - 32] ^= 1;
  expect_refused(b, rp, "vanilla_proof.sectors[0].comm_r_last", "at byte 5648");
}

TEST(PostBincode, SubProofErrorsNameTheirPath) {
  const auto& rp = post_proof_by_name("StackedDrgWindow32GiBV1_1");
  const std::string good = write_post_sector_bincode(make_sector(rp, 9, 4), rp);
  // Proof 3 at 56 + 3 * 2484; base_proof: tag 4, length 8, then levels of 240
  // (hashes length 8, hashes, index); level 2, hash 5.
  const std::size_t at = 56 + 3 * 2484 + 12 + 2 * 240 + 8 + 5 * 32;
  EXPECT_EQ(at, 8168u);
  std::string b = good;
  for (int i = 0; i < 32; ++i) b[at + i] = char(0xff);
  expect_refused(b, rp, "vanilla_proof.sectors[0].inclusion_proofs[3].data.Sub.base_proof.path[2].hashes[5]",
                 "at byte 8168");
  b = good, put_u64(b, 56 + 12 + 9 * 240, 2);  // sub_proof length
  expect_refused(b, rp, "vanilla_proof.sectors[0].inclusion_proofs[0].data.Sub.sub_proof.path", "a length of 2");
  b = good, b[56] = 0;  // a Single where 8-8-0 takes a Sub
  expect_refused(b, rp, "vanilla_proof.sectors[0].inclusion_proofs[0].data", "is Sub (tag 1");
}

TEST(PostBincode, WriterRefusesWrongShape) {
  const auto& rp = post_proof_by_name("StackedDrgWindow2KiBV1");
  auto s = make_sector(rp, 1, 1);
  EXPECT_THROW(write_post_sector_bincode(s, post_proof_by_name("StackedDrgWindow8MiBV1")), std::invalid_argument);
  s.challenges.pop_back();
  EXPECT_THROW(write_post_sector_bincode(s, rp), std::invalid_argument);
}

// The fuzz seeds (fuzz/corpus/fuzz_post_bincode/) are valid blobs of this
// generator: they must keep reading. CUZK_WRITE_POST_CORPUS=<dir> rewrites them.
std::vector<std::pair<std::string, std::string>> corpus_seeds() {
  std::vector<std::pair<std::string, std::string>> out;
  const auto& win = post_proof_by_name("StackedDrgWindow2KiBV1_2");
  const auto& winning = post_proof_by_name("StackedDrgWinning2KiBV1");
  const auto& win_v1 = post_proof_by_name("StackedDrgWindow2KiBV1");
  out.emplace_back("window_2kib_v1_2", write_post_sector_bincode(make_sector(win, 1000, 1), win));
  out.emplace_back("window_2kib_v1", write_post_sector_bincode(make_sector(win_v1, 1001, 2, 1), win_v1));
  out.emplace_back("winning_2kib", write_post_sector_bincode(make_sector(winning, 1002, 3), winning));
  std::string cut = out[0].second.substr(0, 1000);
  out.emplace_back("window_2kib_truncated", cut);
  return out;
}

TEST(PostBincode, FuzzSeedCorpusReads) {
  const auto seeds = corpus_seeds();
  if (const char* dir = std::getenv("CUZK_WRITE_POST_CORPUS")) {
    std::filesystem::create_directories(dir);
    for (const auto& [name, bin] : seeds) std::ofstream(std::filesystem::path(dir) / name, std::ios::binary) << bin;
  }
  const auto dir = std::filesystem::path(test::source_path("fuzz/corpus/fuzz_post_bincode"));
  for (const auto& [name, bin] : seeds) {
    std::ifstream f(dir / name, std::ios::binary);
    ASSERT_TRUE(f) << "missing seed " << (dir / name);
    const std::string stored((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_EQ(stored, bin) << name << " differs from what the generator writes";
  }
}

}  // namespace
}  // namespace cuzk::filecoin
