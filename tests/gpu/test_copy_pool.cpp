// copy_pool (the host half of staged GPU uploads): every byte arrives, for
// sizes around the piece size and with several callers at once. Plain C++.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "gpu/copy_pool.hpp"
#include "test_seed.hpp"

using cuzk::gpu::copy_pool;

namespace {

std::vector<uint8_t> random_bytes(std::mt19937_64& rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = uint8_t(rng());
  return v;
}

}  // namespace

TEST(copy_pool, copies_every_size_exactly) {
  const uint64_t seed = cuzk::test::seed("copy_pool sizes");
  std::mt19937_64 rng(seed);
  constexpr size_t p = copy_pool::piece_bytes;
  for (unsigned helpers : {0u, 1u, 3u}) {
    copy_pool pool(helpers);
    EXPECT_EQ(pool.helpers(), helpers);
    for (size_t n : {size_t(0), size_t(1), p - 1, p, p + 1, 5 * p + 3}) {
      const auto src = random_bytes(rng, n);
      std::vector<uint8_t> dst(n + 16, 0xA5);  // guard bytes after the copy
      pool.copy(dst.data(), src.data(), n);
      EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.begin())) << "helpers " << helpers << " bytes " << n;
      for (size_t i = n; i < dst.size(); ++i) ASSERT_EQ(dst[i], 0xA5) << "wrote past the end, bytes " << n;
    }
  }
}

TEST(copy_pool, concurrent_callers_share_the_helpers) {
  const uint64_t seed = cuzk::test::seed("copy_pool callers");
  std::mt19937_64 rng(seed);
  copy_pool pool(2);
  constexpr int callers = 4;
  std::vector<std::vector<uint8_t>> src, dst;
  for (int i = 0; i < callers; ++i) {
    src.push_back(random_bytes(rng, 3 * copy_pool::piece_bytes + 1000 * size_t(i)));
    dst.emplace_back(src.back().size());
  }
  {
    std::vector<std::jthread> threads;
    for (int i = 0; i < callers; ++i) {
      threads.emplace_back([&, i] {
        for (int round = 0; round < 8; ++round) pool.copy(dst[i].data(), src[i].data(), src[i].size());
      });
    }
  }
  for (int i = 0; i < callers; ++i) EXPECT_EQ(dst[i], src[i]) << "caller " << i;
}
