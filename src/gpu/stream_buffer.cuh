#pragma once
// Device memory from the stream-ordered allocator (cudaMallocAsync): neither
// allocation nor release waits for the whole device, as cudaMalloc / cudaFree
// do while other workers' kernels run. Allocated on one stream, released on
// `release` (the same stream unless the buffer outlives it). Not copyable or movable.
#include <cstddef>

#include "gpu/cuda_check.cuh"

namespace cuzk::gpu {

template <class T>
struct stream_buffer {
  T* data = nullptr;
  size_t n = 0;
  cudaStream_t release = nullptr;

  stream_buffer() = default;
  stream_buffer(size_t count, cudaStream_t alloc) : stream_buffer(count, alloc, alloc) {}
  stream_buffer(size_t count, cudaStream_t alloc, cudaStream_t release_on) : n(count), release(release_on) {
    if (n) CUDA_OK(cudaMallocAsync(reinterpret_cast<void**>(&data), n * sizeof(T), alloc));
  }
  ~stream_buffer() {
    if (data) cudaFreeAsync(data, release);  // no throw from a destructor
  }
  stream_buffer(const stream_buffer&) = delete;
  stream_buffer& operator=(const stream_buffer&) = delete;
};

}  // namespace cuzk::gpu
