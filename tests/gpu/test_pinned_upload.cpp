// Witness buffers page-locked in place (gpu::pin_until_freed): uploads from
// them, whole or in part, give the same values as the staged path, and
// freeing a buffer unlocks it, so its pages can be reused and locked again.
// Skipped without a GPU.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "ff/fr.hpp"
#include "gpu/device.hpp"
#include "gpu/device_scalars.hpp"
#include "r1cs/uninit_allocator.hpp"
#include "test_seed.hpp"

namespace {

using namespace cuzk;
using ff::fr_t;

std::vector<fr_t> round_trip(std::span<const fr_t> v) { return gpu::device_scalars::upload(v).to_host(); }
std::vector<fr_t> as_std(std::span<const fr_t> v) { return {v.begin(), v.end()}; }

}  // namespace

TEST(gpu_pinned_upload, pinned_in_place_uploads_match_and_unlock_when_freed) {
  if (gpu::device_count() == 0)
    GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA): GPU test skipped";
  std::mt19937_64 rng(test::seed("gpu_pinned_upload"));
  const size_t base = gpu::pinned_bytes();
  // 40 MiB plus a bit: several staging chunks, and a tail page the capacity
  // does not fill. Twice: the second buffer likely lands on the first's
  // pages, which must be free of their registration by then.
  const size_t n = (size_t(40) << 20) / sizeof(fr_t) + 123;
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round);
    r1cs::fr_vector v;
    v.resize(n);
    for (auto& x : v) x = fr_t::random(rng);
    const size_t bytes = v.capacity() * sizeof(fr_t);
    gpu::pin_until_freed(v.data(), bytes);
    EXPECT_EQ(gpu::pinned_bytes(), base + bytes / 4096 * 4096);
    gpu::pin_until_freed(v.data(), bytes);  // again: the same registration
    EXPECT_EQ(gpu::pinned_bytes(), base + bytes / 4096 * 4096);
    EXPECT_THROW(gpu::pin_until_freed(v.data(), bytes / 2), std::runtime_error);

    EXPECT_EQ(round_trip(v), as_std(v));
    const std::span<const fr_t> s(v);
    EXPECT_EQ(round_trip(s.subspan(77, 1000000)), as_std(s.subspan(77, 1000000)));  // starts inside
    r1cs::fr_vector().swap(v);
    EXPECT_EQ(gpu::pinned_bytes(), base);
  }
  // Locked in part: the locked pages go by DMA, the rest is staged.
  r1cs::fr_vector v;
  v.resize(n);
  for (auto& x : v) x = fr_t::random(rng);
  gpu::pin_until_freed(v.data(), v.size() * sizeof(fr_t) / 3);
  EXPECT_GT(gpu::pinned_bytes(), base);
  EXPECT_EQ(round_trip(v), as_std(v));
  r1cs::fr_vector().swap(v);
  EXPECT_EQ(gpu::pinned_bytes(), base);
}

// Threads pinning, uploading and freeing their own buffers at once (the
// engine's synthesis workers and prove workers): registrations run with the
// table unlocked, so each upload sees its own data, and every registration
// is gone when its buffer is.
TEST(gpu_pinned_upload, concurrent_pins_uploads_and_frees_stay_exact) {
  if (gpu::device_count() == 0)
    GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA): GPU test skipped";
  const uint64_t seed = test::seed("gpu_pinned_upload.concurrent");
  const size_t base = gpu::pinned_bytes();
  const int device = gpu::current_device();
  std::vector<std::thread> threads;
  std::vector<int> bad(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      gpu::set_device(device);
      std::mt19937_64 rng(seed + uint64_t(t));
      for (int round = 0; round < 8; ++round) {
        r1cs::fr_vector v;
        v.resize(((size_t(3 + t) << 20) + 4096 * size_t(round)) / sizeof(fr_t));
        for (auto& x : v) x = fr_t::random(rng);
        gpu::pin_until_freed(v.data(), v.capacity() * sizeof(fr_t));
        if (round_trip(v) != as_std(v)) ++bad[t];
        r1cs::fr_vector().swap(v);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad, std::vector<int>(4, 0));
  EXPECT_EQ(gpu::pinned_bytes(), base);
}
