// NTTs against a naive DFT, the order-explicit kernels against bit reversal, and
// round trips at larger sizes. Small layouts force the four-step column passes
// (several per transform) at sizes the naive DFT can still check.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <random>
#include <stdexcept>

#include "naive_poly.hpp"
#include "poly/poly.hpp"
#include "test_seed.hpp"

using namespace cuzk::poly;
using cuzk::ff::fr_t;

namespace {

const ntt_layout layouts[] = {
    {},                                   // default: leaf 2^12, passes of <= 2^10
    {.leaf_log = 1, .pass_log_max = 1},   // one radix-2 column pass per level
    {.leaf_log = 2, .pass_log_max = 2},
    {.leaf_log = 3, .pass_log_max = 2},   // uneven passes
    {.leaf_log = 4, .pass_log_max = 3},
};

std::string describe(const ntt_layout& l, uint32_t log_n) {
  return "log_n=" + std::to_string(log_n) + " leaf_log=" + std::to_string(l.leaf_log) +
         " pass_log_max=" + std::to_string(l.pass_log_max);
}

}  // namespace

TEST(ntt_domain, constants) {
  for (uint32_t k : {0u, 1u, 5u, 20u, 32u}) {
    domain_t d(k);
    EXPECT_EQ(d.n, uint64_t(1) << k);
    fr_t t = d.omega;
    for (uint32_t i = 0; i < k; ++i) t = t.sqr();
    EXPECT_TRUE(t.is_one()) << k;
    if (k > 0) {
      fr_t half = d.omega;
      for (uint32_t i = 0; i + 1 < k; ++i) half = half.sqr();
      EXPECT_EQ(half, -fr_t::one()) << "omega must be primitive, k=" << k;
    }
    EXPECT_TRUE((d.omega * d.omega_inv).is_one());
    EXPECT_TRUE((d.n_inv * fr_t::from_u64(d.n)).is_one());
    EXPECT_EQ(d.g, fr_t::from_u64(7));
    EXPECT_TRUE((d.g * d.g_inv).is_one());
    EXPECT_EQ(d.z_on_coset(), fr_t::from_u64(7).pow(d.n) - fr_t::one());
    EXPECT_TRUE((d.z_on_coset() * d.z_on_coset_inv()).is_one());
    EXPECT_EQ(d.roots[k], d.omega);
    EXPECT_LE(d.table_bytes(), size_t(300) << 10);  // O(leaf), not O(n)
  }
  EXPECT_THROW(domain_t(33), std::invalid_argument);
  EXPECT_THROW(domain_t(4, {.leaf_log = 2, .pass_log_max = 3}), std::invalid_argument);
  EXPECT_EQ(domain_t::for_size(1).log_n, 0u);
  EXPECT_EQ(domain_t::for_size(1000).log_n, 10u);
  EXPECT_EQ(domain_t::for_size(1024).log_n, 10u);
  EXPECT_EQ(domain_t::for_size(1025).log_n, 11u);
}

TEST(ntt, rejects_wrong_size) {
  domain_t d(3);
  std::vector<fr_t> v(7);
  EXPECT_THROW(ntt(d, v), std::invalid_argument);
  EXPECT_THROW(coset_intt(d, v), std::invalid_argument);
  EXPECT_THROW(bit_reverse(v), std::invalid_argument);
}

TEST(ntt, bit_reverse_matches_naive_permutation) {
  std::mt19937_64 rng(cuzk::test::seed("ntt.bit_reverse"));
  for (unsigned k = 0; k <= 14; ++k) {
    auto v = naive::random_vec(rng, size_t(1) << k);
    auto w = v;
    bit_reverse(w);
    for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(w[i], v[naive::reverse_bits(i, k)]) << "k=" << k << " i=" << i;
  }
}

TEST(ntt, all_variants_match_naive_dft) {
  std::mt19937_64 rng(cuzk::test::seed("ntt.naive_dft"));
  for (const auto& layout : layouts) {
    for (uint32_t k = 0; k <= 10; ++k) {
      SCOPED_TRACE(describe(layout, k));
      domain_t d(k, layout);
      auto x = naive::random_vec(rng, d.n);

      auto want = naive::dft(x, d.omega);
      auto y = x;
      ntt(d, y);
      ASSERT_EQ(y, want);

      auto yr = x;  // DIF leaves bit-reversed order
      ntt_nr(d, yr, ntt_dir::forward);
      for (size_t i = 0; i < d.n; ++i) ASSERT_EQ(yr[i], want[naive::reverse_bits(i, k)]);
      auto xr = x;  // DIT takes bit-reversed input
      bit_reverse(xr);
      ntt_rn(d, xr, ntt_dir::forward);
      ASSERT_EQ(xr, want);

      // Inverse: interpolation is (1/n) * DFT with omega^-1.
      auto inv = naive::dft(x, d.omega_inv);
      for (auto& e : inv) e *= d.n_inv;
      auto z = x;
      intt(d, z);
      ASSERT_EQ(z, inv);

      auto cz = naive::dft(x, d.omega, d.g);
      auto c = x;
      coset_ntt(d, c);
      ASSERT_EQ(c, cz);
      coset_intt(d, c);
      ASSERT_EQ(c, x);
    }
  }
}

TEST(ntt, round_trips_random_sizes) {
  std::mt19937_64 rng(cuzk::test::seed("ntt.round_trip"));
  std::uniform_int_distribution<uint32_t> pick_k(0, 16);
  for (int iter = 0; iter < 8; ++iter) {
    uint32_t k = iter == 0 ? 16 : pick_k(rng);
    for (const auto& layout : {layouts[0], layouts[3]}) {
      SCOPED_TRACE(describe(layout, k));
      domain_t d(k, layout);
      auto x = naive::random_vec(rng, d.n);
      auto y = x;
      ntt(d, y);
      intt(d, y);
      ASSERT_EQ(y, x);
      coset_ntt(d, y);
      coset_intt(d, y);
      ASSERT_EQ(y, x);
      ntt_nr(d, y, ntt_dir::inverse);
      ntt_rn(d, y, ntt_dir::forward);  // n * x
      for (size_t i = 0; i < d.n; ++i) ASSERT_EQ(y[i] * d.n_inv, x[i]);
    }
  }
}

// Beyond naive DFT sizes the default layout runs column passes; check outputs at
// random positions against Horner evaluation.
TEST(ntt, large_sizes_spot_checked) {
  std::mt19937_64 rng(cuzk::test::seed("ntt.spot"));
  for (uint32_t k : {11u, 13u, 15u, 17u}) {
    SCOPED_TRACE("log_n=" + std::to_string(k));
    domain_t d(k);
    auto x = naive::random_vec(rng, d.n);
    auto y = x, cy = x;
    ntt(d, y);
    coset_ntt(d, cy);
    std::uniform_int_distribution<size_t> pick(0, d.n - 1);
    for (int s = 0; s < 6; ++s) {
      size_t i = s == 0 ? d.n - 1 : pick(rng);
      fr_t pt = d.omega.pow(uint64_t(i));
      EXPECT_EQ(y[i], naive::eval(x, pt)) << i;
      EXPECT_EQ(cy[i], naive::eval(x, d.g * pt)) << i;
    }
  }
}

TEST(ntt, single_thread_arena_gives_same_result) {
  std::mt19937_64 rng(cuzk::test::seed("ntt.arena"));
  domain_t d(15, {.leaf_log = 8, .pass_log_max = 4});
  auto x = naive::random_vec(rng, d.n);
  auto multi = x, single = x;
  ntt(d, multi);
  tbb::task_arena one(1);
  one.execute([&] { ntt(d, single); });
  EXPECT_EQ(multi, single);
}
