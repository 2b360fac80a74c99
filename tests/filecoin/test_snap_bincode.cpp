// SnapDeals vanilla partition proofs: bincode(PartitionProof) as Lotus and
// Curio keep them (storage-proofs-update vanilla.rs, storage-proofs-core
// merkle/proof.rs; FILECOIN_FORMATS.md §4). Round trips of generated sectors
// that the checker then accepts, every size's shape (Single, Sub and Top Tree R
// proofs), the byte layout walked against the Rust struct order, exact sizes,
// and corruptions refused naming the field and byte offset.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "filecoin/snap_bincode.hpp"
#include "porep/domain.hpp"
#include "porep/merkle.hpp"
#include "porep/snap_vanilla.hpp"
#include "test_seed.hpp"

namespace cuzk::filecoin {
namespace {

using porep::snap_opening_t;
using porep::snap_partition_proof_t;
using porep::snap_shape_for;
using porep::snap_shape_t;
constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;

std::span<const std::uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

void expect_same(const snap_opening_t& a, const snap_opening_t& b) {
  EXPECT_EQ(a.leaf_index, b.leaf_index);
  EXPECT_EQ(a.leaf, b.leaf);
  EXPECT_EQ(a.root, b.root);
  EXPECT_EQ(a.path.siblings, b.path.siblings);
}

void expect_same(const snap_partition_proof_t& a, const snap_partition_proof_t& b) {
  EXPECT_EQ(a.comm_c, b.comm_c);
  EXPECT_EQ(a.apex_leaves, b.apex_leaves);
  ASSERT_EQ(a.challenges.size(), b.challenges.size());
  for (std::size_t i = 0; i < a.challenges.size(); ++i) {
    SCOPED_TRACE(i);
    expect_same(a.challenges[i].r_old, b.challenges[i].r_old);
    expect_same(a.challenges[i].d_new, b.challenges[i].d_new);
    expect_same(a.challenges[i].r_new, b.challenges[i].r_new);
  }
}

// A proof with the shape's counts and arbitrary canonical values, for sizes
// whose trees are too large to build here (the reader checks no hashes).
snap_partition_proof_t shaped_proof(const snap_shape_t& s, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto fr = [&] {
    porep::bytes32_t b;
    for (auto& x : b) x = std::uint8_t(rng());
    b[31] &= 0x1f;  // below 2^253 < r
    return *ff::fr_t::from_bytes_le(b);
  };
  auto opening = [&](std::span<const unsigned> arities) {
    snap_opening_t o;
    o.leaf_index = rng() % s.nodes;
    o.leaf = fr(), o.root = fr();
    for (unsigned a : arities) {
      auto& level = o.path.siblings.emplace_back();
      for (unsigned h = 0; h + 1 < a; ++h) level.push_back(fr());
    }
    return o;
  };
  const auto r = s.tree_r_arities();
  const std::vector<unsigned> d(s.challenge_bit_len, 2u);
  snap_partition_proof_t p;
  p.comm_c = fr();
  for (unsigned i = 0; i < s.apex_leaves; ++i) p.apex_leaves.push_back(fr());
  for (unsigned i = 0; i < s.challenges; ++i) p.challenges.push_back({opening(r), opening(d), opening(r)});
  return p;
}

TEST(SnapBincode, RoundTripsGeneratedSectors) {
  const auto seed = test::seed("SnapBincode.RoundTripsGeneratedSectors");
  // 1 KiB 8-4-0 (Sub), 2 KiB 8-0-0 (Single), 16 KiB 8-8-0 in 2 partitions,
  // 8 MiB 8-0-0 in 4 partitions of 128 apex leaves.
  for (std::uint64_t size : {1 * kib, 2 * kib, 16 * kib, 8 * mib}) {
    SCOPED_TRACE(size);
    const auto shape = snap_shape_for(size);
    const porep::snap_sector_t sector(shape, seed + size);
    for (unsigned k = 0; k < shape.partitions; ++k) {
      SCOPED_TRACE(k);
      const auto proof = sector.partition_proof(k);
      const std::string bin = write_snap_partition_bincode(proof, shape);
      EXPECT_EQ(bin.size(), snap_partition_bincode_size(shape));
      const auto back = read_snap_partition_bincode(bytes(bin), shape);
      expect_same(back, proof);
      EXPECT_EQ(write_snap_partition_bincode(back, shape), bin);
      // What was read is what the checker accepts.
      EXPECT_EQ(porep::check_snap_partition(shape, sector.public_inputs(k), back), std::nullopt);
    }
  }
}

TEST(SnapBincode, EveryShapeRoundTrips) {
  const auto seed = test::seed("SnapBincode.EveryShapeRoundTrips");
  for (std::uint64_t size : porep::snap_sector_sizes()) {
    SCOPED_TRACE(size);
    const auto shape = snap_shape_for(size);
    const auto proof = shaped_proof(shape, seed + size);
    const std::string bin = write_snap_partition_bincode(proof, shape);
    EXPECT_EQ(bin.size(), snap_partition_bincode_size(shape));
    const auto back = read_snap_partition_bincode(bytes(bin), shape);
    expect_same(back, proof);
    EXPECT_EQ(write_snap_partition_bincode(back, shape), bin);
  }
}

TEST(SnapBincode, ExactSizes) {
  // Per MerkleProof: tag 4, root and leaf 64, and per InclusionPath 8 plus per
  // level 8 (hashes length) + 32 * (arity - 1) + 8 (index): 240 at arity 8,
  // 48 at arity 2. Around the challenges: comm_c 32, apex_leafs length 8 and
  // 32 per leaf, challenge_proofs length 8.
  const std::uint64_t level8 = 8 + 7 * 32 + 8, level2 = 8 + 32 + 8;
  // 32 GiB: Tree R 8-8-0 is Sub, base_proof 9 levels, sub_proof 1:
  //   4 + 64 + (8 + 9 * 240) + (8 + 240)  = 2,484;
  // Tree D is Single over 30 binary levels: 4 + 64 + 8 + 30 * 48 = 1,516;
  // a challenge 2 * 2,484 + 1,516 = 6,484; 86 challenges 557,624;
  // with 128 apex leaves: 32 + 8 + 4,096 + 8 + 557,624 = 561,768.
  const std::uint64_t r_32g = 4 + 64 + (8 + 9 * level8) + (8 + level8), d_32g = 4 + 64 + 8 + 30 * level2;
  EXPECT_EQ(r_32g, 2484u);
  EXPECT_EQ(d_32g, 1516u);
  EXPECT_EQ(32 + 8 + 128 * 32 + 8 + 86 * (2 * r_32g + d_32g), 561768u);
  EXPECT_EQ(snap_partition_bincode_size(snap_shape_for(32 * gib)), 561768u);
  // 64 GiB: Top adds a top_proof of one arity-2 level (8 + 48): 2,540; Tree D
  // 31 levels 1,564; 4,144 + 86 * 6,644 = 575,528.
  EXPECT_EQ(snap_partition_bincode_size(snap_shape_for(64 * gib)), 575528u);
  // 2 KiB: Single 4 + 64 + 8 + 2 * 240 = 556, Tree D 76 + 6 * 48 = 364;
  // 304 + 10 * 1,476. 1 KiB: Sub 4 + 64 + (8 + 240) + (8 + 8 + 3 * 32 + 8) = 436,
  // Tree D 76 + 5 * 48 = 316; 304 + 10 * 1,188.
  EXPECT_EQ(snap_partition_bincode_size(snap_shape_for(2 * kib)), 15064u);
  EXPECT_EQ(snap_partition_bincode_size(snap_shape_for(1 * kib)), 12184u);
  // And a written 32 GiB partition has that length.
  const auto shape = snap_shape_for(32 * gib);
  EXPECT_EQ(write_snap_partition_bincode(shaped_proof(shape, 7), shape).size(), 561768u);
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

// One MerkleProof at `at`: ProofData tag, then Single {root, leaf, path} or
// Sub/Top {base_proof, sub_proof, (top_proof,) root, leaf}.
void expect_merkle_proof(const std::string& b, std::size_t& at, const snap_opening_t& o,
                         const std::vector<unsigned>& ar, std::uint32_t tag) {
  EXPECT_EQ(le_at(b, at, 4), tag);
  at += 4;
  auto root_leaf = [&] {
    EXPECT_EQ(b.substr(at, 32), fr_at(o.root));
    EXPECT_EQ(b.substr(at + 32, 32), fr_at(o.leaf));
    at += 64;
  };
  if (tag == 0) root_leaf();
  const std::vector<std::size_t> parts = tag == 0   ? std::vector<std::size_t>{ar.size()}
                                         : tag == 1 ? std::vector<std::size_t>{ar.size() - 1, 1}
                                                    : std::vector<std::size_t>{ar.size() - 2, 1, 1};
  std::size_t level = 0;
  std::uint64_t node = o.leaf_index;
  for (auto n : parts) {
    EXPECT_EQ(le_at(b, at, 8), n);
    at += 8;
    for (std::size_t k = 0; k < n; ++k, ++level) {
      EXPECT_EQ(le_at(b, at, 8), ar[level] - 1);
      at += 8;
      for (const auto& h : o.path.siblings[level]) {
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

// PartitionProof {comm_c, apex_leafs: Vec, challenge_proofs: Vec<ChallengeProof
// {proof_r_old, proof_d_new, proof_r_new}>}.
TEST(SnapBincode, LayoutFollowsRustFieldOrder) {
  const auto seed = test::seed("SnapBincode.LayoutFollowsRustFieldOrder");
  // 1 KiB 8-4-0 Sub, 2 KiB 8-0-0 Single, 32 KiB 8-8-2 Top.
  for (auto [size, r_tag] : {std::pair{1 * kib, 1u}, std::pair{2 * kib, 0u}, std::pair{32 * kib, 2u}}) {
    SCOPED_TRACE(size);
    const auto shape = snap_shape_for(size);
    const auto p = porep::snap_sector_t(shape, seed + size).partition_proof(shape.partitions - 1);
    const std::string b = write_snap_partition_bincode(p, shape);
    const auto r = shape.tree_r_arities();
    const std::vector<unsigned> d(shape.challenge_bit_len, 2u);
    std::size_t at = 0;
    EXPECT_EQ(b.substr(at, 32), fr_at(p.comm_c));
    at += 32;
    EXPECT_EQ(le_at(b, at, 8), shape.apex_leaves);
    at += 8;
    for (const auto& x : p.apex_leaves) {
      EXPECT_EQ(b.substr(at, 32), fr_at(x));
      at += 32;
    }
    EXPECT_EQ(le_at(b, at, 8), shape.challenges);
    at += 8;
    for (const auto& c : p.challenges) {
      expect_merkle_proof(b, at, c.r_old, r, r_tag);
      expect_merkle_proof(b, at, c.d_new, d, 0);  // Tree D: always Single
      expect_merkle_proof(b, at, c.r_new, r, r_tag);
    }
    EXPECT_EQ(at, b.size());
  }
}

// Read `bin` as `shape`, expecting a vanilla_format_error for `element` whose
// message holds `detail`.
void expect_refused(const std::string& bin, const snap_shape_t& shape, const std::string& element,
                    const std::string& detail = "") {
  try {
    read_snap_partition_bincode(bytes(bin), shape);
    ADD_FAILURE() << "accepted; expected an error at " << element;
  } catch (const porep::vanilla_format_error& e) {
    EXPECT_EQ(e.element(), element) << e.what();
    EXPECT_NE(std::string(e.what()).find(detail), std::string::npos) << e.what() << " lacks " << detail;
  }
}

void put_u64(std::string& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = char(std::uint8_t(v >> (8 * i)));
}
void put_ff(std::string& b, std::size_t at) {
  for (int i = 0; i < 32; ++i) b[at + i] = char(0xff);
}

TEST(SnapBincode, CorruptionsNameFieldAndOffset) {
  const auto seed = test::seed("SnapBincode.CorruptionsNameFieldAndOffset");
  const auto shape = snap_shape_for(2 * kib);
  const porep::snap_sector_t sector(shape, seed);
  const std::string good = write_snap_partition_bincode(sector.partition_proof(0), shape);
  ASSERT_EQ(good.size(), 15064u);
  // 2 KiB: comm_c 0, apex_leafs length 32 and leaves from 40, challenge_proofs
  // length 296, challenge i at 304 + 1,476 i: proof_r_old (556: tag, root 4,
  // leaf 36, path length 68, levels of 240 from 76), proof_d_new at +556 (364:
  // levels of 48 from 76), proof_r_new at +920.
  auto challenge_at = [](std::size_t i) { return 304 + 1476 * i; };
  const std::string cp = "challenge_proofs";
  std::string b;

  for (std::size_t cut = 0; cut < good.size(); cut += 97)
    EXPECT_THROW(read_snap_partition_bincode(bytes(good.substr(0, cut)), shape), porep::vanilla_format_error) << cut;
  expect_refused(good.substr(0, 20), shape, "comm_c", "truncated: 32 bytes needed at byte 0, 20 left");
  expect_refused(good.substr(0, 300), shape, cp, "truncated: 8 bytes needed at byte 296, 4 left");
  expect_refused(good.substr(0, challenge_at(3) + 556 + 40), shape, cp + "[3].proof_d_new.data.Single.leaf",
                 "at byte " + std::to_string(challenge_at(3) + 556 + 36));
  expect_refused(good.substr(0, good.size() - 1), shape, cp + "[9].proof_r_new.data.Single.path.path[1].index");
  expect_refused(good + "x", shape, "PartitionProof", "1 bytes after challenge_proofs (at byte 15064)");

  b = good, put_u64(b, 32, 7);
  expect_refused(b, shape, "apex_leafs", "a length of 7 at byte 32: 2KiB sectors take 8 apex leaves");
  b = good, put_u64(b, 296, 11);
  expect_refused(b, shape, cp, "a length of 11 at byte 296: 2KiB sectors take 10 challenge proofs");
  // A Sub tag where 8-0-0's Tree R and every Tree D take a Single.
  b = good, b[challenge_at(0)] = 1;
  expect_refused(b, shape, cp + "[0].proof_r_old.data",
                 "ProofData tag 1 at byte 304: a Tree R proof of 2KiB sectors is Single (tag 0");
  b = good, b[challenge_at(2) + 556] = 1;
  expect_refused(b, shape, cp + "[2].proof_d_new.data", "a Tree D proof of 2KiB sectors is Single");
  b = good, put_u64(b, challenge_at(2) + 920 + 68, 3);
  expect_refused(b, shape, cp + "[2].proof_r_new.data.Single.path.path", "a length of 3");
  b = good, put_u64(b, challenge_at(2) + 76 + 240, 6);
  expect_refused(b, shape, cp + "[2].proof_r_old.data.Single.path.path[1].hashes",
                 "2KiB sectors take 7 siblings at Tree R level 1 (arity 8)");
  // Path indices at or past the arity.
  const std::size_t r_index = challenge_at(4) + 76 + 240 + 232;
  b = good, put_u64(b, r_index, 8);
  expect_refused(b, shape, cp + "[4].proof_r_old.data.Single.path.path[1].index",
                 "8 at byte " + std::to_string(r_index) + " is not a slot of an arity-8 level");
  b = good, put_u64(b, challenge_at(1) + 556 + 76 + 3 * 48 + 40, 2);
  expect_refused(b, shape, cp + "[1].proof_d_new.data.Single.path.path[3].index", "not a slot of an arity-2 level");
  // Bytes that are no field element.
  const std::size_t h5 = challenge_at(3) + 76 + 240 + 8 + 5 * 32;  // level 1, hash 5
  b = good, put_ff(b, h5);
  expect_refused(b, shape, cp + "[3].proof_r_old.data.Single.path.path[1].hashes[5]",
                 "not a canonical field element (at byte " + std::to_string(h5) + ")");
  b = good, put_ff(b, 40 + 5 * 32);
  expect_refused(b, shape, "apex_leafs[5]", "at byte 200");
  b = good, put_ff(b, challenge_at(6) + 556 + 4);
  expect_refused(b, shape, cp + "[6].proof_d_new.data.Single.root", "not a canonical");
  // r itself is not canonical, r - 1 is.
  const porep::bytes32_t r_le = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                 0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                                 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
  b = good, std::copy(r_le.begin(), r_le.end(), b.begin());
  expect_refused(b, shape, "comm_c", "not a canonical field element (at byte 0)");
  b[0] = 0;  // r - 1
  EXPECT_NO_THROW(read_snap_partition_bincode(bytes(b), shape));
  // A blob of another sector size: 1 KiB's Tree R is 8-4-0 (Sub), 8 MiB has 128 apex leaves.
  expect_refused(good, snap_shape_for(1 * kib), cp + "[0].proof_r_old.data",
                 "ProofData tag 0 at byte 304: a Tree R proof of 1KiB sectors is Sub (tag 1");
  expect_refused(good, snap_shape_for(8 * mib), "apex_leafs", "a length of 8 at byte 32: 8MiB sectors take 128");
  // Roots are the checker's: a root that is still a field element reads, and
  // check_snap_partition names it.
  b = good, b[challenge_at(5) + 4] ^= 1;
  const auto p = read_snap_partition_bincode(bytes(b), shape);
  const auto failure = porep::check_snap_partition(shape, sector.public_inputs(0), p);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->element, cp + "[5].proof_r_old.root");
}

TEST(SnapBincode, SubAndTopErrorsNameTheirPath) {
  // 32 GiB: challenge i at 4,144 + 6,484 i; proof_r_old is Sub: tag 4, then
  // base_proof's length 8 and levels of 240 (hashes length, hashes, index).
  const auto shape = snap_shape_for(32 * gib);
  const std::string good = write_snap_partition_bincode(shaped_proof(shape, 3), shape);
  const std::size_t at = 4144 + 3 * 6484 + 12 + 2 * 240 + 8 + 5 * 32;  // challenge 3, level 2, hash 5
  EXPECT_EQ(at, 24256u);
  std::string b = good;
  put_ff(b, at);
  expect_refused(b, shape, "challenge_proofs[3].proof_r_old.data.Sub.base_proof.path[2].hashes[5]", "at byte 24256");
  b = good, put_u64(b, 4144 + 12 + 9 * 240, 2);  // sub_proof length
  expect_refused(b, shape, "challenge_proofs[0].proof_r_old.data.Sub.sub_proof.path", "a length of 2");
  b = good, b[4144] = 0;  // a Single where 8-8-0 takes a Sub
  expect_refused(b, shape, "challenge_proofs[0].proof_r_old.data", "is Sub (tag 1");
  // Its Tree D proof (after 2,484 bytes) is Single over 30 levels.
  b = good, put_u64(b, 4144 + 2484 + 68, 29);
  expect_refused(b, shape, "challenge_proofs[0].proof_d_new.data.Single.path.path", "32GiB sectors take 30 levels");

  // 1 KiB 8-4-0: base_proof 1 level of 8 (240), sub_proof 1 level of 4 (112);
  // challenge 0's proof_r_new at 304 + 436 + 316, its sub_proof index at +12 + 240 + 8 + 8 + 96.
  const auto small = snap_shape_for(1 * kib);
  const std::string one = write_snap_partition_bincode(porep::snap_sector_t(small, 5).partition_proof(0), small);
  b = one, put_u64(b, 304 + 436 + 316 + 12 + 240 + 8 + 8 + 96, 4);
  expect_refused(b, small, "challenge_proofs[0].proof_r_new.data.Sub.sub_proof.path[0].index",
                 "not a slot of an arity-4 level");

  // 64 GiB 8-8-2: Top, top_proof after base (8 + 9 * 240) and sub (8 + 240): one level of one sibling.
  const auto top = snap_shape_for(64 * gib);
  const std::string t = write_snap_partition_bincode(shaped_proof(top, 4), top);
  b = t, put_u64(b, 4144 + 4 + 8 + 9 * 240 + 8 + 240 + 8 + 8 + 32, 2);
  expect_refused(b, top, "challenge_proofs[0].proof_r_old.data.Top.top_proof.path[0].index",
                 "not a slot of an arity-2 level");
}

TEST(SnapBincode, WriterRefusesWrongShape) {
  const auto shape = snap_shape_for(2 * kib);
  const auto good = porep::snap_sector_t(shape, 1).partition_proof(0);
  EXPECT_THROW(write_snap_partition_bincode(good, snap_shape_for(8 * mib)), std::invalid_argument);
  EXPECT_THROW(write_snap_partition_bincode(good, snap_shape_for(1 * kib)), std::invalid_argument);
  auto p = good;
  p.challenges.pop_back();
  EXPECT_THROW(write_snap_partition_bincode(p, shape), std::invalid_argument);
  p = good, p.apex_leaves.push_back(p.comm_c);
  EXPECT_THROW(write_snap_partition_bincode(p, shape), std::invalid_argument);
  p = good, p.challenges[3].d_new.path.siblings[2].push_back(p.comm_c);
  EXPECT_THROW(write_snap_partition_bincode(p, shape), std::invalid_argument);
  p = good, p.challenges[3].r_new.path.siblings.pop_back();
  EXPECT_THROW(write_snap_partition_bincode(p, shape), std::invalid_argument);
  p = good, p.challenges[0].r_old.leaf_index = shape.nodes;
  EXPECT_THROW(write_snap_partition_bincode(p, shape), std::invalid_argument);
}

// The public inputs partition 0's proof states itself: comm_r_old and
// comm_r_new = Poseidon_2(comm_c, root), comm_d_new its Tree D root.
porep::snap_public_t stated_public_inputs(const snap_shape_t& shape, const snap_partition_proof_t& p) {
  const auto& c = p.challenges[0];
  const ff::fr_t old_in[2] = {p.comm_c, c.r_old.root}, new_in[2] = {p.comm_c, c.r_new.root};
  return {0, porep::hash_children(porep::tree_hash_t::poseidon, old_in), c.d_new.root,
          porep::hash_children(porep::tree_hash_t::poseidon, new_in), shape.h_default()};
}

// The fuzz seeds (fuzz/corpus/fuzz_snap_bincode/, written by cuzk_fuzz_corpus:
// scripts/make_fuzz_corpus.sh) are partition 0 of generated sectors: they must
// keep reading, writing back byte for byte and passing the checker.
TEST(SnapBincode, FuzzSeedCorpusReads) {
  const auto dir = std::filesystem::path(test::source_path("fuzz/corpus/fuzz_snap_bincode"));
  auto load = [&](const char* name) {
    std::ifstream f(dir / name, std::ios::binary);
    EXPECT_TRUE(f) << "missing seed " << (dir / name);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  for (auto [name, size] : {std::pair{"snap_2kib", 2 * kib}, std::pair{"snap_1kib", 1 * kib}}) {
    SCOPED_TRACE(name);
    const auto shape = snap_shape_for(size);
    const std::string bin = load(name);
    const auto p = read_snap_partition_bincode(bytes(bin), shape);
    EXPECT_EQ(write_snap_partition_bincode(p, shape), bin);
    EXPECT_EQ(porep::check_snap_partition(shape, stated_public_inputs(shape, p), p), std::nullopt);
  }
  EXPECT_THROW(read_snap_partition_bincode(bytes(load("snap_2kib_truncated")), snap_shape_for(2 * kib)),
               porep::vanilla_format_error);
}

}  // namespace
}  // namespace cuzk::filecoin
