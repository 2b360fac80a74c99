#pragma once
// Owner of one non-blocking CUDA stream (it does not serialize with the legacy default stream).
#include <utility>

#include "gpu/cuda_check.cuh"

namespace cuzk::gpu {

class stream_t {
 public:
  stream_t() { CUDA_OK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
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
  cudaStream_t s_ = nullptr;
};

}  // namespace cuzk::gpu
