#pragma once
// Owner of one non-blocking CUDA stream (it does not serialize with the legacy default stream).
// Its priority is the creating thread's (stream_priority.hpp): the device's
// greatest where that thread asked for it, the default otherwise.
#include <utility>

#include "gpu/cuda_check.cuh"
#include "gpu/stream_priority.hpp"

namespace cuzk::gpu {

class stream_t {
 public:
  stream_t() {
    if (thread_stream_priority_high()) {
      int least = 0, greatest = 0;  // numerically: greatest <= least
      CUDA_OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
      CUDA_OK(cudaStreamCreateWithPriority(&s_, cudaStreamNonBlocking, greatest));
    } else {
      CUDA_OK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking));
    }
  }
  // A stream one priority step above s's (numerically one less), or at the
  // device's greatest where s is there already: of two blocks waiting for an
  // SM, its block starts first.
  static stream_t above(cudaStream_t s) {
    int p = 0, least = 0, greatest = 0;
    CUDA_OK(cudaStreamGetPriority(s, &p));
    CUDA_OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    return stream_t(p - 1 < greatest ? greatest : p - 1);
  }
  ~stream_t() {
    if (s_) cudaStreamDestroy(s_);
  }
  stream_t(stream_t&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  stream_t& operator=(stream_t&& o) noexcept {
    std::swap(s_, o.s_);
    return *this;
  }
  stream_t(const stream_t&) = delete;
  stream_t& operator=(const stream_t&) = delete;

  cudaStream_t get() const { return s_; }
  operator cudaStream_t() const { return s_; }
  void sync() const { CUDA_OK(cudaStreamSynchronize(s_)); }

 private:
  explicit stream_t(int priority) { CUDA_OK(cudaStreamCreateWithPriority(&s_, cudaStreamNonBlocking, priority)); }
  cudaStream_t s_ = nullptr;
};

}  // namespace cuzk::gpu
