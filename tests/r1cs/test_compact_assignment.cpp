// r1cs::compact_assignment_t against the values it packs: every value back
// by index and by unpack, the wide count and bytes from an independent
// count, across task boundaries (2^16 variables) and partial last words.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include <tbb/parallel_for.h>

#include "r1cs/compact_assignment_t.hpp"
#include "test_seed.hpp"

namespace cuzk::r1cs {
namespace {

using ff::fr_t;

// n values: 0 and 1 with probability `bits` (half each), the rest random or
// small non-bits (2, -1), the cases a bit test might confuse.
std::vector<fr_t> mixed(std::size_t n, double bits, std::mt19937_64& rng) {
  std::vector<fr_t> v(n);
  std::uniform_real_distribution<double> u(0, 1);
  for (auto& x : v) {
    const double p = u(rng);
    if (p < bits / 2) x = fr_t::zero();
    else if (p < bits) x = fr_t::one();
    else if (p < bits + (1 - bits) / 4) x = fr_t::one().dbl();
    else if (p < bits + (1 - bits) / 2) x = -fr_t::one();
    else x = fr_t::random(rng);
  }
  return v;
}

void expect_round_trip(const std::vector<fr_t>& v, std::uint64_t seed) {
  const compact_assignment_t c = compact_assignment_t::pack(v);
  ASSERT_EQ(c.size(), v.size());
  std::size_t wide = 0;
  for (const auto& x : v) wide += !(x.is_zero() || x.is_one());
  EXPECT_EQ(c.wide_count(), wide) << "seed " << seed;
  const std::size_t words = (v.size() + 63) / 64;
  EXPECT_EQ(c.bytes(), 3 * 8 * words + 32 * wide);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!(c[i] == v[i])) FAIL() << "value " << i << " of " << v.size() << " differs (seed " << seed << ")";
    EXPECT_EQ(c.is_wide(i), !(v[i].is_zero() || v[i].is_one()));
  }
  const fr_vector back = c.unpack();
  ASSERT_EQ(back.size(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!(back[i] == v[i])) FAIL() << "unpacked value " << i << " differs (seed " << seed << ")";
  }
}

TEST(compact_assignment, round_trips_mixed_values_of_every_size) {
  const std::uint64_t seed = test::seed("compact_assignment");
  std::mt19937_64 rng(seed);
  for (std::size_t n : {0u, 1u, 63u, 64u, 65u, 1000u, (1u << 16) - 1, (1u << 16) + 1, 300'001u}) {
    for (double bits : {0.0, 0.9, 1.0}) expect_round_trip(mixed(n, bits, rng), seed);
  }
}

TEST(compact_assignment, bits_take_three_bits_and_other_values_thirty_two_bytes) {
  std::vector<fr_t> v(1 << 20, fr_t::one());
  v[5] = fr_t::one().dbl();
  const compact_assignment_t c = compact_assignment_t::pack(v);
  EXPECT_EQ(c.wide_count(), 1u);
  EXPECT_EQ(c.bytes(), 3 * (std::size_t(1) << 20) / 8 + 32);
  EXPECT_EQ(c[5], fr_t::one().dbl());
  EXPECT_EQ(c[6], fr_t::one());
  std::vector<fr_t> wrong(3);
  EXPECT_THROW(c.unpack(std::span<fr_t>(wrong)), std::invalid_argument);
}

// compact_builder_t: writers over disjoint ranges (none aligned to 64, so
// neighbours share words), run concurrently in shuffled order, give the same
// packed form as pack() over the whole assignment.
TEST(compact_assignment, builder_from_concurrent_ranges_equals_pack) {
  const std::uint64_t seed = test::seed("compact_assignment.builder");
  std::mt19937_64 rng(seed);
  for (std::size_t n : {0u, 1u, 64u, 1000u, 300'001u}) {
    for (double bits : {0.0, 0.9, 1.0}) {
      const std::vector<fr_t> v = mixed(n, bits, rng);
      std::vector<std::size_t> cuts = {0, n};
      for (std::size_t k = 0; k < n / 500; ++k) cuts.push_back(std::uniform_int_distribution<std::size_t>(0, n)(rng));
      std::sort(cuts.begin(), cuts.end());
      std::vector<std::pair<std::size_t, std::size_t>> ranges;
      for (std::size_t k = 0; k + 1 < cuts.size(); ++k) ranges.emplace_back(cuts[k], cuts[k + 1]);
      std::shuffle(ranges.begin(), ranges.end(), rng);
      compact_builder_t b(n);
      tbb::parallel_for(std::size_t(0), ranges.size(), [&](std::size_t k) {
        compact_builder_t::writer_t w(b, ranges[k].first, ranges[k].second);
        for (std::size_t i = ranges[k].first; i < ranges[k].second; ++i) w.push(v[i]);
        w.done();
      });
      const compact_assignment_t got = std::move(b).finish();
      EXPECT_TRUE(got == compact_assignment_t::pack(v)) << n << " values, " << bits << " bits, seed " << seed;
      EXPECT_EQ(got.size(), n);
    }
  }
}

// A cap on values other than 0 and 1: reached is fine, passed is refused
// with an error naming the cap and the range that passed it.
TEST(compact_assignment, builder_refuses_more_wide_values_than_its_cap) {
  std::vector<fr_t> v(300, fr_t::one());
  for (std::size_t i = 0; i < 300; i += 3) v[i] = fr_t::one().dbl();  // 100 wide
  {
    compact_builder_t b(300, 100);
    compact_builder_t::writer_t w(b, 0, 300);
    for (const auto& x : v) w.push(x);
    w.done();
    EXPECT_EQ(std::move(b).finish().wide_count(), 100u);
  }
  compact_builder_t b(300, 99);
  compact_builder_t::writer_t w1(b, 0, 150), w2(b, 150, 300);
  for (std::size_t i = 0; i < 150; ++i) w1.push(v[i]);
  for (std::size_t i = 150; i < 300; ++i) w2.push(v[i]);
  w1.done();
  try {
    w2.done();
    FAIL() << "100 wide values passed a cap of 99";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("more than 99 values other than 0 and 1"), std::string::npos) << what;
    EXPECT_NE(what.find("[150, 300)"), std::string::npos) << what;
  }
}

TEST(compact_assignment, builder_refuses_overlapping_and_overfull_ranges) {
  const std::vector<fr_t> v(200, fr_t::one().dbl());
  {
    compact_builder_t b(200);
    compact_builder_t::writer_t w1(b, 0, 120), w2(b, 100, 200);
    for (std::size_t i = 0; i < 120; ++i) w1.push(v[i]);
    for (std::size_t i = 100; i < 200; ++i) w2.push(v[i]);
    w1.done();
    w2.done();
    EXPECT_THROW(std::move(b).finish(), std::logic_error);
  }
  {
    compact_builder_t b(200);
    compact_builder_t::writer_t w(b, 0, 10);
    for (std::size_t i = 0; i < 11; ++i) w.push(v[i]);
    EXPECT_THROW(w.done(), std::logic_error);
  }
  {
    // A writer that never reports done() leaves its bits set without its values.
    compact_builder_t b(200);
    compact_builder_t::writer_t w(b, 0, 100);
    for (std::size_t i = 0; i < 100; ++i) w.push(v[i]);
    compact_builder_t::writer_t(b, 100, 101).done();
    EXPECT_THROW(std::move(b).finish(), std::logic_error);
  }
}

}  // namespace
}  // namespace cuzk::r1cs
