#pragma once
// One CUDA stream lent from the device's pool (gpu/stream_slots.hpp: one
// stream per hardware queue, some kept for the greatest priority), returned
// when this owner goes. Its priority is the creating thread's
// (stream_priority.hpp): the device's greatest where that thread asked for it,
// the default otherwise. Pooled streams are non-blocking (they do not
// serialize with the legacy default stream) and live as long as the process,
// so stream-ordered frees queued on one never outlive it. A stream may be lent
// to several owners at once when all of its class are lent: work on it is then
// ordered after theirs, and sync() waits for theirs too.
#include <utility>

#include "gpu/cuda_check.cuh"
#include "gpu/stream_priority.hpp"

namespace cuzk::gpu {

struct stream_lease_t {
  cudaStream_t stream = nullptr;
  int device = -1;
  int slot = -1;
};
// gpu/stream_pool.cu: the current device's stream of the asked class with the fewest holders.
stream_lease_t lease_stream(bool high);
void release_stream(const stream_lease_t& lease);

class stream_t {
 public:
  stream_t() : l_(lease_stream(thread_stream_priority_high())) {}
  ~stream_t() {
    if (l_.stream) release_stream(l_);
  }
  stream_t(stream_t&& o) noexcept : l_(std::exchange(o.l_, stream_lease_t{})) {}
  stream_t& operator=(stream_t&& o) noexcept {
    std::swap(l_, o.l_);
    return *this;
  }
  stream_t(const stream_t&) = delete;
  stream_t& operator=(const stream_t&) = delete;

  cudaStream_t get() const { return l_.stream; }
  operator cudaStream_t() const { return l_.stream; }
  void sync() const { CUDA_OK(cudaStreamSynchronize(l_.stream)); }

 private:
  stream_lease_t l_;
};

}  // namespace cuzk::gpu
