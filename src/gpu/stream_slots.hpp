#pragma once
// Which of a device's pooled CUDA streams a new stream_t gets. Plain C++, so
// the policy runs in CI; gpu/stream_pool.cu holds the streams.
//
// Why a pool: the driver feeds a device's streams to the GPU through a fixed
// number of hardware queues (CUDA_DEVICE_MAX_CONNECTIONS: 8 unless set; the
// CLI sets 32), handed to streams in turn as they are created. Two streams in
// one queue run in turn, whatever their priorities: a WinningPoSt kernel
// queued behind a PoRep MSM's kernels waits for all of them. Streams made per
// call, as they were, land in any queue. The pool makes one stream per queue
// once, leaving one queue to the legacy default stream, never makes another,
// and keeps some of them for the greatest priority, so a critical proof's
// streams never share a queue with default-priority work. Within a class a
// new stream_t takes the stream with the fewest holders (a stream is shared
// only when every one of its class is held; sharing orders work, never
// changes its result).
#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::gpu {

class stream_slots {
 public:
  static constexpr int default_connections = 8;  // the driver's, when the variable is unset
  static constexpr int max_connections = 32;     // the driver's limit

  // The driver's hardware queues per device from CUDA_DEVICE_MAX_CONNECTIONS's
  // value (null: unset). Values the driver would not take (not a number, < 1)
  // mean its default; values above 32 mean 32.
  static int connections_from(const char* value) {
    if (value == nullptr || *value == '\0') return default_connections;
    char* end = nullptr;
    const long v = std::strtol(value, &end, 10);
    if (*end != '\0' || v < 1) return default_connections;
    return int(std::min<long>(v, max_connections));
  }

  // connections - 1 streams (at least 2): a quarter of them, at least 2 where
  // there are 4 or more, for the greatest priority (32 queues: 7 and 24;
  // 8 queues: 2 and 5).
  explicit stream_slots(int connections) {
    if (connections < 1 || connections > max_connections)
      throw std::invalid_argument("gpu::stream_slots: " + std::to_string(connections) + " hardware queues, not 1-" +
                                  std::to_string(max_connections));
    const int total = std::max(2, connections - 1);
    high_ = total >= 4 ? std::max(2, total / 4) : 1;
    holders_.assign(size_t(total), 0);
  }

  int size() const { return int(holders_.size()); }
  int high_slots() const { return high_; }  // slots [0, high_slots()) have the greatest priority
  bool is_high(int slot) const { return slot < high_; }
  int holders(int slot) const { return holders_.at(size_t(slot)); }

  // The slot of the asked class with the fewest holders (the lowest on ties), now held once more.
  int lease(bool high) {
    const int first = high ? 0 : high_, last = high ? high_ : size();
    int best = first;
    for (int s = first + 1; s < last; ++s)
      if (holders_[size_t(s)] < holders_[size_t(best)]) best = s;
    ++holders_[size_t(best)];
    return best;
  }

  void release(int slot) {
    if (slot < 0 || slot >= size() || holders_[size_t(slot)] == 0)
      throw std::logic_error("gpu::stream_slots: release of slot " + std::to_string(slot) + ", which is not held");
    --holders_[size_t(slot)];
  }

 private:
  int high_ = 0;
  std::vector<int> holders_;
};

}  // namespace cuzk::gpu
