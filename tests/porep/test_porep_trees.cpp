// Trees of the PoRep against independent values: Filecoin's CC-sector comm_d
// (all-zero data) and neptune's binary Poseidon tree vector, plus the sparse
// tree against the dense one.
#include <gtest/gtest.h>

#include <random>

#include "../test_seed.hpp"
#include "porep/domain.hpp"
#include "porep/merkle.hpp"

namespace cuzk::porep {
namespace {

// Root of a binary SHA-256 Tree D over `depth` levels of zero data.
ff::fr_t zero_tree_d_root(unsigned depth) {
  ff::fr_t z = ff::fr_t::zero();
  for (unsigned l = 0; l < depth; ++l) {
    std::array<ff::fr_t, 2> c{z, z};
    z = hash_children(tree_hash_t::sha256, c);
  }
  return z;
}

TEST(PorepTrees, CommittedCapacityCommD) {
  // comm_d of all-zero (CC) sectors as LE bytes, from supranational supra_seal's
  // demo pipeline (32 GiB, 512 MiB) and a Filecoin tool's 2 KiB constant, found
  // with the search tool.
  const bytes32_t cc_2k = {252, 126, 146, 130, 150, 229, 22, 250, 173, 233, 134, 178, 143, 146, 212, 74,
                           79,  36,  185, 53,  72,  82,  35, 55,  106, 121, 144, 39,  188, 24,  248, 51};
  const bytes32_t cc_512m = {57, 86, 14, 123, 19, 169, 59, 7, 162, 67, 253, 39, 32, 255, 167, 203,
                             62, 29, 46, 80, 90, 179, 98, 158, 121, 244, 99, 19, 81, 44, 218, 6};
  const bytes32_t cc_32g = {0x07, 0x7e, 0x5f, 0xde, 0x35, 0xc5, 0x0a, 0x93, 0x03, 0xa5, 0x50,
                            0x09, 0xe3, 0x49, 0x8a, 0x4e, 0xbe, 0xdf, 0xf3, 0x9c, 0x42, 0xb7,
                            0x10, 0xb7, 0x30, 0xd8, 0xec, 0x7a, 0xc7, 0xaf, 0xa6, 0x3e};
  EXPECT_EQ(to_le_bytes(zero_tree_d_root(6)), cc_2k);
  EXPECT_EQ(to_le_bytes(zero_tree_d_root(24)), cc_512m);
  EXPECT_EQ(to_le_bytes(zero_tree_d_root(30)), cc_32g);
  // The dense tree agrees with the level-by-level computation.
  merkle_tree_t t(tree_hash_t::sha256, std::vector<unsigned>(6, 2), std::vector<ff::fr_t>(64));
  EXPECT_EQ(to_le_bytes(t.root()), cc_2k);
}

TEST(PorepTrees, PoseidonBinaryTreeVector) {
  // rust-fil-proofs filecoin-hashers poseidon.rs test_poseidon_hasher: root of
  // leaves [1, 0, 0, 1] (FILECOIN_POREP.md §3.2).
  std::vector<ff::fr_t> leaves = {ff::fr_t::one(), ff::fr_t::zero(), ff::fr_t::zero(), ff::fr_t::one()};
  merkle_tree_t t(tree_hash_t::poseidon, {2, 2}, leaves);
  EXPECT_EQ(t.root().to_hex(), "1effebb7b26ad9eb30eb6385ae6b74ae77cc72b8cb2b5ad2efbb8be3e291e671");
}

TEST(PorepTrees, SparseTreeMatchesDenseTreeAndPathsReachRoot) {
  const auto s = test::seed("PorepTrees.Sparse");
  std::mt19937_64 rng(s);
  const std::vector<unsigned> ar = {8, 8, 2};
  std::vector<ff::fr_t> leaves(128);
  for (auto& x : leaves) x = ff::fr_t::random(rng);
  std::unordered_map<std::uint64_t, ff::fr_t> all;
  for (std::uint64_t i = 0; i < leaves.size(); ++i) all.emplace(i, leaves[i]);
  merkle_tree_t dense(tree_hash_t::poseidon, ar, leaves);
  sparse_merkle_tree_t full(tree_hash_t::poseidon, ar, all, [](unsigned, std::uint64_t) -> ff::fr_t {
    ADD_FAILURE() << "filler used although every leaf is given";
    return ff::fr_t::zero();
  });
  EXPECT_EQ(full.root(), dense.root());
  // Three touched leaves, everything else filler: each path reaches the one root.
  std::unordered_map<std::uint64_t, ff::fr_t> few = {{3, leaves[3]}, {4, leaves[4]}, {100, leaves[100]}};
  sparse_merkle_tree_t sparse(tree_hash_t::poseidon, ar, few,
                              [](unsigned l, std::uint64_t i) { return ff::fr_t::from_u64(1000 * l + i); });
  for (auto& [node, leaf] : few) {
    EXPECT_EQ(path_root(tree_hash_t::poseidon, ar, node, leaf, sparse.path(node)), sparse.root());
    EXPECT_EQ(path_root(tree_hash_t::poseidon, ar, node, leaf, dense.path(node)), dense.root());
  }
  EXPECT_NE(path_root(tree_hash_t::poseidon, ar, 5, leaves[3], sparse.path(3)), sparse.root());
  EXPECT_EQ(path_slots(ar, 100), std::vector<unsigned>({4, 4, 1}));
  merkle_path_t short_path = sparse.path(3);
  short_path.siblings.pop_back();
  EXPECT_THROW(path_root(tree_hash_t::poseidon, ar, 3, leaves[3], short_path), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::porep
