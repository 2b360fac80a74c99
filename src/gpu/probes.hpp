#pragma once
// Device ceilings for benchmarks, each timed with CUDA events around kernels
// only (no transfers, no launches of setup work): the rate of Fr
// multiplication and the device-memory copy bandwidth.
#include <cstddef>
#include <cstdint>

namespace cuzk::gpu {

// blocks x threads threads, each running two independent chains of
// muls_per_thread Fr multiplications. Milliseconds for the whole kernel.
double fr_mul_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread);

// cudaMemcpy device to device of bytes bytes (bandwidth = 2·bytes / time).
double d2d_copy_ms(size_t bytes);

}  // namespace cuzk::gpu
