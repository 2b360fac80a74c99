// UInt32 gadgets against native u32 arithmetic, with bellperson's addmany
// widths (33 / 34 / 35 result bits) and constant folding.
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "gadget_test_util.hpp"
#include "test_seed.hpp"

using namespace cuzk::gadgets;
using namespace cuzk::gadgets::test_util;
using cuzk::r1cs::test_cs;

namespace {
uint32_word_t alloc_word(test_cs& cs, std::uint32_t v, const std::string& name) {
  cuzk::r1cs::namespace_guard ns(cs, name);
  return uint32_word_t::alloc(cs, v);
}
std::uint32_t bits_value(const uint32_word_t& w) {
  std::uint32_t v = 0;
  for (int i = 0; i < 32; ++i) v |= std::uint32_t(*w.bits[i].value()) << i;
  return v;
}
}  // namespace

TEST(Uint32Gadgets, BitOpsMatchNative) {
  std::mt19937_64 rng(cuzk::test::seed("Uint32Gadgets.BitOpsMatchNative"));
  for (int k = 0; k < 20; ++k) {
    std::uint32_t x = std::uint32_t(rng()), y = std::uint32_t(rng()), z = std::uint32_t(rng());
    test_cs cs;
    uint32_word_t a = alloc_word(cs, x, "a"), b = alloc_word(cs, y, "b"), c = alloc_word(cs, z, "c");
    EXPECT_EQ(cs.num_constraints(), 96u);
    std::size_t r = std::size_t(rng() % 40);
    EXPECT_EQ(bits_value(a.rotr(r)), std::rotr(x, int(r % 32)));
    EXPECT_EQ(*a.rotr(r).value, std::rotr(x, int(r % 32)));
    EXPECT_EQ(bits_value(a.shr(r % 32)), x >> (r % 32));
    EXPECT_EQ(bits_value(uint32_word_t::from_bits_be(a.to_bits_be())), x);
    uint32_word_t v;
    {
      cuzk::r1cs::namespace_guard ns(cs, "xor");
      v = uint32_xor(cs, a, b);
    }
    EXPECT_EQ(bits_value(v), x ^ y);
    EXPECT_EQ(*v.value, x ^ y);
    {
      cuzk::r1cs::namespace_guard ns(cs, "and");
      EXPECT_EQ(bits_value(uint32_and(cs, a, b)), x & y);
    }
    {
      cuzk::r1cs::namespace_guard ns(cs, "ch");
      EXPECT_EQ(bits_value(uint32_ch(cs, a, b, c)), (x & y) ^ (~x & z));
    }
    {
      cuzk::r1cs::namespace_guard ns(cs, "maj");
      EXPECT_EQ(bits_value(uint32_maj(cs, a, b, c)), (x & y) ^ (x & z) ^ (y & z));
    }
    // xor with a shifted word: shifted-in zeros are constants and cost no row.
    std::size_t before = cs.num_constraints();
    {
      cuzk::r1cs::namespace_guard ns(cs, "xor shr");
      EXPECT_EQ(bits_value(uint32_xor(cs, a, b.shr(10))), x ^ (y >> 10));
    }
    EXPECT_EQ(cs.num_constraints() - before, 22u);
    ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
    if (k == 0) expect_corruption_caught(cs, v.bits[3].bit().var, "xor constraint");
  }
}

TEST(Uint32Gadgets, AddmanyMatchesNative) {
  std::mt19937_64 rng(cuzk::test::seed("Uint32Gadgets.AddmanyMatchesNative"));
  for (std::size_t n_ops = 2; n_ops <= 8; ++n_ops) {
    test_cs cs;
    multi_eq_t<test_cs> meq(cs);
    std::vector<uint32_word_t> ops;
    std::uint32_t want = 0;
    for (std::size_t i = 0; i < n_ops; ++i) {
      std::uint32_t v = std::uint32_t(rng());
      want += v;
      // The last operand is a constant, as SHA-256's K_i is.
      ops.push_back(i + 1 == n_ops ? uint32_word_t::constant(v) : alloc_word(cs, v, "op " + std::to_string(i)));
    }
    std::size_t before = cs.num_constraints();
    uint32_word_t sum;
    {
      cuzk::r1cs::namespace_guard ns(cs, "sum");
      sum = uint32_addmany(meq, std::span<const uint32_word_t>(ops));
      meq.flush();
    }
    std::size_t width = std::bit_width(std::uint64_t(n_ops) * 0xffffffffULL);
    EXPECT_EQ(cs.num_constraints() - before, width + 1) << n_ops << " operands";
    EXPECT_EQ(*sum.value, want);
    EXPECT_EQ(bits_value(sum), want);
    expect_corruption_caught(cs, sum.bits[0].bit().var, "sum/multieq 0", true);
  }
  // All constants fold.
  test_cs cs;
  multi_eq_t<test_cs> meq(cs);
  std::array<uint32_word_t, 3> consts{uint32_word_t::constant(0xffffffff), uint32_word_t::constant(5),
                                      uint32_word_t::constant(7)};
  uint32_word_t s = uint32_addmany(meq, std::span<const uint32_word_t>(consts));
  meq.flush();
  EXPECT_EQ(cs.num_constraints(), 0u);
  EXPECT_EQ(*s.value, 11u);
}

TEST(Uint32Gadgets, MultiEqPacksUntilCapacity) {
  // 7 two-operand additions of 33 bits: 7 * 33 = 231 < 254 fit one row, the
  // 8th (264) forces a flush first; so 2 multieq rows in all.
  test_cs cs;
  multi_eq_t<test_cs> meq(cs);
  std::size_t bool_rows = 0;
  for (int i = 0; i < 8; ++i) {
    cuzk::r1cs::namespace_guard ns(cs, "add " + std::to_string(i));
    uint32_word_t a = alloc_word(cs, 0x80000000u + i, "a");
    std::array<uint32_word_t, 2> ops{a, a};
    uint32_addmany(meq, std::span<const uint32_word_t>(ops));
    bool_rows += 32 + 33;
  }
  EXPECT_EQ(cs.num_constraints(), bool_rows + 1);  // the first flush happened at op 8
  meq.flush();
  EXPECT_EQ(cs.num_constraints(), bool_rows + 2);
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
}
