#pragma once
// The device's pooled CUDA streams (gpu/stream_slots.hpp says why), as plain
// C++ for tests and the CLI's diagnostics. Built without CUDA, these throw.
#include <utility>
#include <vector>

namespace cuzk::gpu {

struct stream_pool_shape_t {
  int connections = 0;   // the driver's hardware queues per device (CUDA_DEVICE_MAX_CONNECTIONS)
  int streams = 0;       // pooled streams of the current device
  int high_streams = 0;  // of which have the greatest priority
};
stream_pool_shape_t stream_pool_shape();

// For every ordered pair (i, j) of the current device's pooled streams: a
// one-thread kernel on stream i waits (at most timeout_ms) for a flag that a
// kernel queued after it on stream j sets. Pairs that share a hardware queue
// run in turn, so the waiter gives up: those pairs are returned (empty: every
// stream has a queue of its own).
std::vector<std::pair<int, int>> pooled_stream_pairs_run_in_turn(double timeout_ms);

}  // namespace cuzk::gpu
