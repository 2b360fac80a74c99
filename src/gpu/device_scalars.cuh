#pragma once
// The device side of gpu::device_scalars: a stream-ordered buffer, released
// on the per-thread stream since it outlives the stream that filled it.
#include "gpu/device_scalars.hpp"
#include "gpu/fr_d.cuh"
#include "gpu/stream_buffer.cuh"

namespace cuzk::gpu {

struct device_scalars::impl : stream_buffer<fr_d> {
  impl() = default;
  impl(size_t count, cudaStream_t s) : stream_buffer<fr_d>(count, s, cudaStreamPerThread) {}
};

}  // namespace cuzk::gpu
