// gpu::cuda_async: results and exceptions come back through the future, and
// tasks that wait for each other all run at once (a task never queues behind
// a busy thread), since prove_start's tasks block on GPU results and locks.
// Plain C++: runs in CI.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <latch>
#include <stdexcept>
#include <thread>
#include <vector>

#include "gpu/cuda_threads.hpp"

using namespace cuzk;

TEST(cuda_threads, results_and_exceptions_reach_the_future) {
  EXPECT_EQ(gpu::cuda_async([] { return 6 * 7; }).get(), 42);
  auto bad = gpu::cuda_async([]() -> int { throw std::runtime_error("from the task"); });
  EXPECT_THROW(bad.get(), std::runtime_error);
  std::vector<int> v(1000, 1);
  auto moved = gpu::cuda_async([w = std::move(v)]() mutable {
    w.clear();
    return w.size();
  });
  EXPECT_EQ(moved.get(), 0u);
}

TEST(cuda_threads, tasks_waiting_for_each_other_all_run) {
  // Each task waits until all 16 have started: with fewer threads than
  // waiting tasks this would hang, so the wait is bounded and counted.
  constexpr int n = 16;
  for (int round = 0; round < 3; ++round) {  // later rounds reuse parked threads
    std::latch all_started(n);
    std::vector<std::future<bool>> done;
    for (int i = 0; i < n; ++i) {
      done.push_back(gpu::cuda_async([&all_started] {
        all_started.count_down();
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (!all_started.try_wait()) {
          if (std::chrono::steady_clock::now() > until) return false;
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return true;
      }));
    }
    for (auto& d : done) EXPECT_TRUE(d.get()) << "round " << round;
  }
}
