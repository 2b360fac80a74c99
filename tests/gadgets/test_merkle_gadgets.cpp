// Merkle inclusion gadgets against natively built trees: Tree D shape (binary
// SHA-256, trimmed digests) and Tree C / Tree R shapes (8-ary Poseidon with
// 8-8-0 and 8-8-2 compounding), with FILECOIN_POREP.md §8 per-level counts:
// SHA-256 level 45,382 rows / 45,335 aux, Poseidon 8-ary 530 / 537,
// Poseidon 2-ary 314 / 315, plus 2 rows (path input, root check).
#include <gtest/gtest.h>

#include <random>

#include "gadget_test_util.hpp"
#include "test_seed.hpp"

using namespace cuzk::gadgets;
using namespace cuzk::gadgets::test_util;
using cuzk::ff::fr_t;
using cuzk::r1cs::test_cs;

namespace {

// Leaves below 2^254, as Filecoin's domain values are.
std::vector<fr_t> random_leaves(std::mt19937_64& rng, std::size_t n) {
  std::vector<fr_t> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(*fr_t::from_canonical({rng(), rng(), rng(), rng() >> 2}));
  return v;
}

struct expected_t {
  std::size_t rows, aux;
};

void check_inclusion(merkle_hasher_t hasher, const std::vector<std::size_t>& arities, std::size_t leaf_index,
                     std::mt19937_64& rng, expected_t want) {
  std::size_t n = 1;
  for (std::size_t a : arities) n *= a;
  std::vector<fr_t> leaves = random_leaves(rng, n);
  auto layers = merkle_tree_layers(hasher, arities, leaves);
  ASSERT_EQ(layers.back().size(), 1u);
  const fr_t root = layers.back()[0];
  merkle_path_t path = merkle_path_of(arities, layers, leaf_index);
  EXPECT_EQ(merkle_path_index(path), leaf_index);
  EXPECT_EQ(merkle_root_from_path(hasher, leaves[leaf_index], path), root);

  test_cs cs;
  allocated_num_t leaf = alloc_num(cs, leaves[leaf_index], "leaf");
  allocated_num_t root_num = alloc_num(cs, root, "root");
  std::size_t rows0 = cs.num_constraints(), aux0 = cs.num_aux();
  cuzk::r1cs::variable_t input = merkle_inclusion_gadget(cs, hasher, leaf, path, root_num);
  std::cout << "[count] inclusion, " << arities.size() << " levels: rows=" << cs.num_constraints() - rows0
            << " aux=" << cs.num_aux() - aux0 << "\n";
  EXPECT_EQ(cs.num_constraints() - rows0, want.rows);
  EXPECT_EQ(cs.num_aux() - aux0, want.aux);
  EXPECT_EQ(cs.num_inputs(), 2u);
  EXPECT_EQ(cs.value(input), fr_t::from_u64(leaf_index));
  ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  expect_corruption_caught(cs, root_num.var, "enforce root is correct");
  expect_corruption_caught(cs, input, "path");
  expect_corruption_caught(cs, leaf.var);

  // Shape mode agrees on the sizes.
  cuzk::r1cs::shape_cs shape;
  allocated_num_t l2 = allocated_num_t::alloc(shape, std::nullopt), r2 = allocated_num_t::alloc(shape, std::nullopt);
  merkle_inclusion_gadget(shape, hasher, l2, empty_merkle_path(arities), r2);
  EXPECT_EQ(shape.num_constraints(), want.rows);
  EXPECT_EQ(shape.num_aux(), want.aux + 2);

  // A wrong leaf cannot reach the root. (Poseidon trees only: test_cs
  // needs seconds per SHA-256 level.)
  if (hasher == merkle_hasher_t::sha256) return;
  test_cs bad;
  allocated_num_t bl = alloc_num(bad, leaves[leaf_index] + fr_t::one(), "leaf");
  allocated_num_t br = alloc_num(bad, root, "root");
  merkle_inclusion_gadget(bad, hasher, bl, path, br);
  EXPECT_EQ(bad.which_is_unsatisfied().value_or(""), "enforce root is correct");
}

}  // namespace

TEST(MerkleGadgets, PoseidonTree880) {
  std::mt19937_64 rng(cuzk::test::seed("MerkleGadgets.PoseidonTree880"));
  // 2 base levels, an 8-ary sub level: 512 leaves.
  auto arities = tree_arities(8, 2, 8, 0);
  check_inclusion(merkle_hasher_t::poseidon, arities, rng() % 512, rng, {3 * 530 + 2, 3 * 537});
}

TEST(MerkleGadgets, PoseidonTree882) {
  std::mt19937_64 rng(cuzk::test::seed("MerkleGadgets.PoseidonTree882"));
  auto arities = tree_arities(8, 1, 8, 2);
  check_inclusion(merkle_hasher_t::poseidon, arities, rng() % 128, rng, {530 + 530 + 314 + 2, 537 + 537 + 315});
  check_inclusion(merkle_hasher_t::poseidon, arities, 127, rng, {530 + 530 + 314 + 2, 537 + 537 + 315});
}

TEST(MerkleGadgets, Sha256BinaryTree) {
  std::mt19937_64 rng(cuzk::test::seed("MerkleGadgets.Sha256BinaryTree"));
  check_inclusion(merkle_hasher_t::sha256, tree_arities(2, 1), rng() % 2, rng, {45382 + 2, 45335});
}

TEST(MerkleGadgets, NativeTwins) {
  std::mt19937_64 rng(cuzk::test::seed("MerkleGadgets.NativeTwins"));
  fr_t a = random_leaves(rng, 1)[0], b = random_leaves(rng, 1)[0];
  std::array<std::uint8_t, 64> buf;
  a.to_bytes_le(std::span(buf).first(32));
  b.to_bytes_le(std::span(buf).last(32));
  sha256_digest_t d = sha256(buf);
  d[31] &= 0x3f;
  EXPECT_EQ(sha256_hash2_trimmed(a, b), *fr_t::from_bytes_le(d));
  // A 64 GiB-like shape's root equals Poseidon_2 of the two sub-tree roots.
  auto arities = tree_arities(8, 1, 8, 2);
  std::vector<fr_t> leaves = random_leaves(rng, 128);
  auto layers = merkle_tree_layers(merkle_hasher_t::poseidon, arities, leaves);
  std::array<fr_t, 2> subs;
  for (int h = 0; h < 2; ++h) {
    std::array<fr_t, 8> bases;
    for (int k = 0; k < 8; ++k) bases[k] = poseidon_hash(std::span(leaves).subspan(64 * h + 8 * k, 8));
    subs[h] = poseidon_hash(bases);
  }
  EXPECT_EQ(layers.back()[0], poseidon_hash(subs));
  for (int k = 0; k < 10; ++k) {
    std::size_t i = rng() % 128;
    auto path = merkle_path_of(arities, layers, i);
    EXPECT_EQ(merkle_root_from_path(merkle_hasher_t::poseidon, leaves[i], path), layers.back()[0]);
  }
  EXPECT_THROW(merkle_tree_layers(merkle_hasher_t::poseidon, arities, std::span(leaves).first(127)),
               std::invalid_argument);
}
