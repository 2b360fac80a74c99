#pragma once
// The device side of gpu::device_scalars: memory from the stream-ordered
// allocator (cudaMallocAsync), so neither allocation nor release waits for
// the whole device as cudaMalloc / cudaFree do while other workers' kernels run.
#include "gpu/cuda_check.cuh"
#include "gpu/device_scalars.hpp"
#include "gpu/fr_d.cuh"

namespace cuzk::gpu {

struct device_scalars::impl {
  fr_d* data = nullptr;
  size_t n = 0;

  impl() = default;
  impl(size_t count, cudaStream_t s) : n(count) {
    if (n) CUDA_OK(cudaMallocAsync(reinterpret_cast<void**>(&data), n * sizeof(fr_d), s));
  }
  ~impl() {
    if (data) cudaFreeAsync(data, cudaStreamPerThread);  // no throw from a destructor
  }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
};

}  // namespace cuzk::gpu
