// r1cs::buffer_pool_t through the allocator it serves (fr_vector): which
// frees it keeps, which allocations get those buffers back, and that its
// byte counts (what the engine's budget pays for) follow every step.
#include <gtest/gtest.h>

#include "r1cs/buffer_pool_t.hpp"

namespace cuzk::r1cs {
namespace {

using alloc = fr_vector::allocator_type;
constexpr size_t big = (size_t(3) << 20) / sizeof(ff::fr_t);  // 3 MiB: rounded to 4 MiB
constexpr uint64_t big_bytes = alloc::rounded(big * sizeof(ff::fr_t));

fr_vector make(size_t n) {
  fr_vector v;
  v.reserve(n);
  return v;
}

TEST(buffer_pool, keeps_only_inside_a_keep_scope_and_only_large_buffers) {
  buffer_pool_t pool;
  ASSERT_TRUE(pool.install());
  { fr_vector freed = make(big); }
  EXPECT_EQ(pool.idle_bytes(), 0u) << "a free outside keep_scope must go back to the system";
  {
    buffer_pool_t::keep_scope keep;
    fr_vector small = make(1000), large = make(big);
  }
  EXPECT_EQ(pool.idle_bytes(), big_bytes) << "only the >= 2 MiB buffer is kept";
  EXPECT_EQ(pool.take_kept(UINT64_MAX), big_bytes);
  EXPECT_EQ(pool.take_kept(UINT64_MAX), 0u) << "kept bytes are handed to the budget once";
}

TEST(buffer_pool, promised_buffers_go_to_their_token_only_and_at_their_exact_size) {
  buffer_pool_t pool;
  ASSERT_TRUE(pool.install());
  const void* kept = nullptr;
  {
    buffer_pool_t::keep_scope keep;
    fr_vector v = make(big);
    kept = v.data();
  }
  EXPECT_EQ(pool.promise(7, 0, big_bytes - 1), 0u) << "a buffer larger than max stays idle";
  EXPECT_EQ(pool.promise(7, big_bytes + 1, UINT64_MAX), 0u) << "less than min: nothing is set aside";
  ASSERT_EQ(pool.promise(7, big_bytes, big_bytes), big_bytes);
  EXPECT_EQ(pool.idle_bytes(), 0u);
  EXPECT_EQ(pool.promised_bytes(), big_bytes);
  {
    fr_vector no_token = make(big);
    EXPECT_NE(no_token.data(), kept) << "an allocation outside a take_scope must not get a promised buffer";
    buffer_pool_t::take_scope other(8);
    fr_vector wrong_token = make(big);
    EXPECT_NE(wrong_token.data(), kept);
  }
  {
    buffer_pool_t::take_scope mine(7);
    fr_vector other_size = make(big * 2);
    EXPECT_NE(other_size.data(), kept) << "sizes must match exactly";
    fr_vector v = make(big);
    EXPECT_EQ(v.data(), kept) << "the promised buffer comes back to its token";
    EXPECT_EQ(pool.promised_bytes(), 0u);
    EXPECT_EQ(pool.hits(), 1u);
  }
  EXPECT_EQ(pool.idle_bytes(), 0u) << "freed outside keep_scope: not kept again";
}

TEST(buffer_pool, forfeit_and_evict_free_buffers_and_report_only_banked_bytes) {
  buffer_pool_t pool;
  ASSERT_TRUE(pool.install());
  {
    buffer_pool_t::keep_scope keep;
    fr_vector a = make(big), b = make(big), c = make(big);
  }
  EXPECT_EQ(pool.idle_bytes(), 3 * big_bytes);
  // One banked, two still owed by take_kept.
  EXPECT_EQ(pool.take_kept(big_bytes), big_bytes);
  // Evicted bytes count against what is still owed first: the one left idle
  // is the banked one, so the budget has nothing to give back yet.
  EXPECT_EQ(pool.evict(2 * big_bytes), 0u);
  EXPECT_EQ(pool.idle_bytes(), big_bytes);
  EXPECT_EQ(pool.take_kept(UINT64_MAX), 0u) << "the evicted unbanked bytes are no longer owed";
  EXPECT_EQ(pool.evict(1), big_bytes) << "the last one was banked: its bytes go back to the budget";
  {
    buffer_pool_t::keep_scope keep;
    fr_vector d = make(big);
  }
  ASSERT_EQ(pool.promise(1, 0, UINT64_MAX), big_bytes);
  EXPECT_EQ(pool.forfeit(1), big_bytes);  // paid by the claiming reservation: no budget change
  EXPECT_EQ(pool.forfeit(1), 0u);
  EXPECT_EQ(pool.idle_bytes() + pool.promised_bytes(), 0u);
}

TEST(buffer_pool, one_pool_installed_at_a_time_and_none_after_it_dies) {
  {
    buffer_pool_t first, second;
    ASSERT_TRUE(first.install());
    EXPECT_FALSE(second.install());
    first.uninstall();
    EXPECT_TRUE(second.install());
  }
  EXPECT_EQ(large_buffer_cache.load(), nullptr);
  buffer_pool_t::keep_scope keep;
  fr_vector v = make(big);  // no pool: allocated and freed as usual
  EXPECT_NE(v.data(), nullptr);
}

}  // namespace
}  // namespace cuzk::r1cs
