// The device's stream pool (gpu/stream_slots.hpp): the slot policy in plain
// C++ (CI), and on a GPU that every pooled stream has a hardware queue of its
// own, so critical kernels never queue behind default-priority work.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/device.hpp"
#include "gpu/stream_pool.hpp"
#include "gpu/stream_slots.hpp"
#include "test_seed.hpp"

using cuzk::gpu::stream_slots;

TEST(gpu_stream_slots, connections_read_as_the_driver_reads_them) {
  EXPECT_EQ(stream_slots::connections_from(nullptr), 8);
  EXPECT_EQ(stream_slots::connections_from(""), 8);
  EXPECT_EQ(stream_slots::connections_from("32"), 32);
  EXPECT_EQ(stream_slots::connections_from("1"), 1);
  EXPECT_EQ(stream_slots::connections_from("64"), 32);
  EXPECT_EQ(stream_slots::connections_from("0"), 8);
  EXPECT_EQ(stream_slots::connections_from("-4"), 8);
  EXPECT_EQ(stream_slots::connections_from("12x"), 8);
  EXPECT_EQ(stream_slots::connections_from("many"), 8);
  EXPECT_THROW(stream_slots(0), std::invalid_argument);
  EXPECT_THROW(stream_slots(33), std::invalid_argument);
}

TEST(gpu_stream_slots, one_stream_per_queue_less_one_a_quarter_of_them_critical) {
  struct shape_t {
    int connections, streams, high;
  };
  for (const shape_t s : {shape_t{32, 31, 7}, {8, 7, 2}, {5, 4, 2}, {4, 3, 1}, {2, 2, 1}, {1, 2, 1}}) {
    SCOPED_TRACE(s.connections);
    const stream_slots slots(s.connections);
    EXPECT_EQ(slots.size(), s.streams);
    EXPECT_EQ(slots.high_slots(), s.high);
    for (int i = 0; i < slots.size(); ++i) EXPECT_EQ(slots.is_high(i), i < s.high);
  }
}

TEST(gpu_stream_slots, classes_never_share_and_a_stream_is_shared_only_when_all_of_its_class_are_held) {
  stream_slots slots(32);  // 7 critical, 24 default
  std::vector<int> high, normal;
  for (int i = 0; i < 7; ++i) high.push_back(slots.lease(true));
  for (int i = 0; i < 24; ++i) normal.push_back(slots.lease(false));
  std::vector<int> all = high;
  all.insert(all.end(), normal.begin(), normal.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "a slot lent twice before all were lent";
  for (int h : high) EXPECT_TRUE(slots.is_high(h));
  for (int n : normal) EXPECT_FALSE(slots.is_high(n));
  // All held once: the next of each class shares the lowest slot of its class.
  EXPECT_EQ(slots.lease(true), 0);
  EXPECT_EQ(slots.lease(false), 7);
  EXPECT_EQ(slots.holders(0), 2);
  EXPECT_EQ(slots.holders(7), 2);
  // A released slot is the next one lent.
  slots.release(normal[5]);
  EXPECT_EQ(slots.lease(false), normal[5]);
  slots.release(high[3]);
  EXPECT_EQ(slots.lease(true), high[3]);
}

TEST(gpu_stream_slots, every_lease_takes_a_least_held_slot_of_its_class) {
  std::mt19937_64 rng(cuzk::test::seed("gpu_stream_slots"));
  stream_slots slots(8);  // 2 critical, 5 default
  std::vector<int> held;
  for (int step = 0; step < 5000; ++step) {
    if (!held.empty() && rng() % 2 == 0) {
      const size_t k = rng() % held.size();
      slots.release(held[k]);
      held.erase(held.begin() + std::ptrdiff_t(k));
      continue;
    }
    const bool high = rng() % 3 == 0;
    int least = 1 << 30;
    for (int s = 0; s < slots.size(); ++s)
      if (slots.is_high(s) == high) least = std::min(least, slots.holders(s));
    const int got = slots.lease(high);
    ASSERT_EQ(slots.is_high(got), high) << "step " << step;
    ASSERT_EQ(slots.holders(got), least + 1) << "step " << step;
    held.push_back(got);
  }
  for (int s : held) slots.release(s);
  for (int s = 0; s < slots.size(); ++s) EXPECT_EQ(slots.holders(s), 0);
  EXPECT_THROW(slots.release(0), std::logic_error);
  EXPECT_THROW(slots.release(7), std::logic_error);
}

TEST(gpu_stream_pool, every_pooled_stream_has_a_hardware_queue_of_its_own) {
  if (cuzk::gpu::device_count() == 0)
    GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA): GPU test skipped";
  const auto shape = cuzk::gpu::stream_pool_shape();
  EXPECT_EQ(shape.connections, stream_slots::connections_from(std::getenv("CUDA_DEVICE_MAX_CONNECTIONS")));
  EXPECT_EQ(shape.streams, stream_slots(shape.connections).size());
  EXPECT_EQ(shape.high_streams, stream_slots(shape.connections).high_slots());
  // A pair that shares a queue leaves its waiter spinning until the timeout.
  const auto in_turn = cuzk::gpu::pooled_stream_pairs_run_in_turn(200.0);
  std::string pairs;
  for (const auto& [i, j] : in_turn) pairs += " (" + std::to_string(i) + ", " + std::to_string(j) + ")";
  EXPECT_TRUE(in_turn.empty()) << in_turn.size() << " pairs of the " << shape.streams
                               << " pooled streams ran in turn:" << pairs;
}
