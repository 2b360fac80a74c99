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

// The same for Fp (the base field of G1 and, over Fp2, of G2).
double fp_mul_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread);

// blocks x threads threads, each adding adds_per_thread affine points into an
// XYZZ accumulator (G1's mixed addition, 8M + 2S) with the points in L1: the
// arithmetic ceiling of the MSM's bucket accumulation.
double g1_add_mixed_ms(uint32_t blocks, uint32_t threads, uint32_t adds_per_thread);

// cudaMemcpy device to device of bytes bytes (bandwidth = 2·bytes / time).
double d2d_copy_ms(size_t bytes);

}  // namespace cuzk::gpu
