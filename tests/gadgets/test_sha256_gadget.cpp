// SHA-256 gadget against the native hash on random messages (multi-block,
// any byte length), with bellperson's published counts: 25,840 for one
// 512-bit allocated block from the IV (sha256.rs test_full_block) and 44,874
// for sha256() of 512 allocated bits (test_full_hash).
#include <gtest/gtest.h>

#include <random>

#include "gadget_test_util.hpp"
#include "test_seed.hpp"

using namespace cuzk::gadgets;
using namespace cuzk::gadgets::test_util;
using cuzk::r1cs::test_cs;

namespace {

std::vector<std::uint8_t> bits_to_bytes(const std::vector<boolean_t>& bits) {
  std::vector<std::uint8_t> out(bits.size() / 8);
  for (std::size_t i = 0; i < bits.size(); ++i)
    if (*bits[i].value()) out[i / 8] |= std::uint8_t(0x80 >> (i % 8));
  return out;
}

std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = std::uint8_t(rng());
  return v;
}

}  // namespace

TEST(Sha256Gadget, CountsMatchBellperson) {
  std::mt19937_64 rng(cuzk::test::seed("Sha256Gadget.CountsMatchBellperson"));
  std::vector<std::uint8_t> msg = random_bytes(rng, 64);
  {
    test_cs cs;
    std::vector<boolean_t> bits = alloc_bits(cs, bytes_to_bits(msg), "input bit");
    std::size_t before = cs.num_constraints();
    std::vector<boolean_t> out = sha256_block_no_padding_gadget(cs, std::span<const boolean_t>(bits));
    EXPECT_EQ(cs.num_constraints() - before, 25840u);
    std::array<std::uint32_t, 8> state = sha256_iv;
    sha256_compress(state, msg.data());
    std::vector<std::uint8_t> got = bits_to_bytes(out);
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ(got[4 * i] << 24 | got[4 * i + 1] << 16 | got[4 * i + 2] << 8 | got[4 * i + 3], int(state[i]));
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  }
  {
    test_cs cs;
    std::vector<boolean_t> bits = alloc_bits(cs, bytes_to_bits(msg), "input bit");
    std::size_t before = cs.num_constraints(), aux_before = cs.num_aux();
    std::vector<boolean_t> out = sha256_gadget(cs, std::span<const boolean_t>(bits));
    std::cout << "[count] sha256 of 512 allocated bits: rows=" << cs.num_constraints() - before
              << " aux=" << cs.num_aux() - aux_before << "\n";
    EXPECT_EQ(cs.num_constraints() - before, 44874u);
    EXPECT_EQ(cs.num_aux() - aux_before, 44828u);  // FILECOIN_POREP.md §7 table
    sha256_digest_t want = sha256(msg);
    EXPECT_EQ(bits_to_bytes(out), std::vector<std::uint8_t>(want.begin(), want.end()));
    ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
    // Flip one message bit: the digest bits no longer follow.
    expect_corruption_caught(cs, bits[100].bit().var);
  }
}

TEST(Sha256Gadget, RandomLengthsMatchNative) {
  std::mt19937_64 rng(cuzk::test::seed("Sha256Gadget.RandomLengthsMatchNative"));
  // test_cs keeps a name per row (~20k rows per block), so few lengths:
  // empty, the one- and two-block padding edges, and a random one.
  for (std::size_t len : {std::size_t(0), std::size_t(56), std::size_t(119), std::size_t(rng() % 130)}) {
    std::vector<std::uint8_t> msg = random_bytes(rng, len);
    test_cs cs;
    std::vector<boolean_t> bits = alloc_bits(cs, bytes_to_bits(msg), "input bit");
    // Some constant and negated bits, as real circuits mix them in.
    std::vector<bool> plain = bytes_to_bits(msg);
    for (std::size_t i = 0; i < bits.size(); i += 7) bits[i] = boolean_t::constant(plain[i]);
    std::vector<boolean_t> out = sha256_gadget(cs, std::span<const boolean_t>(bits));
    sha256_digest_t want = sha256(msg);
    EXPECT_EQ(bits_to_bytes(out), std::vector<std::uint8_t>(want.begin(), want.end())) << "length " << len;
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  }
  test_cs cs;
  std::vector<boolean_t> seven(7);
  EXPECT_THROW(sha256_gadget(cs, std::span<const boolean_t>(seven)), std::invalid_argument);
}

TEST(Sha256Gadget, ShapeModeCountsAgree) {
  // The same gadget in shape mode (no values, no LCs) gives the same sizes.
  cuzk::r1cs::shape_cs shape;
  std::vector<boolean_t> bits;
  for (int i = 0; i < 512; ++i) bits.push_back(alloc_boolean(shape, std::nullopt));
  sha256_gadget(shape, std::span<const boolean_t>(bits));
  EXPECT_EQ(shape.num_constraints(), 512u + 44874u);
  EXPECT_EQ(shape.num_aux(), 512u + 44828u);
}
