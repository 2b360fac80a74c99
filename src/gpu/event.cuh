#pragma once
// Owner of one CUDA event, with timing enabled (benchmarks read elapsed device time from pairs of them)
// unless made with no_timing_t.
#include <utility>

#include "gpu/cuda_check.cuh"

namespace cuzk::gpu {

class event_t {
 public:
  event_t() { CUDA_OK(cudaEventCreate(&e_)); }
  // An event for ordering only (cudaEventDisableTiming: cheaper to record and wait on).
  struct no_timing_t {};
  explicit event_t(no_timing_t) { CUDA_OK(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming)); }
  ~event_t() {
    if (e_) cudaEventDestroy(e_);
  }
  event_t(event_t&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  event_t& operator=(event_t&& o) noexcept {
    std::swap(e_, o.e_);
    return *this;
  }
  event_t(const event_t&) = delete;
  event_t& operator=(const event_t&) = delete;

  cudaEvent_t get() const { return e_; }
  void record(cudaStream_t s = nullptr) { CUDA_OK(cudaEventRecord(e_, s)); }
  void sync() const { CUDA_OK(cudaEventSynchronize(e_)); }
  // Milliseconds from start to this event; both must have completed.
  float ms_since(const event_t& start) const {
    float ms = 0;
    CUDA_OK(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms;
  }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace cuzk::gpu
