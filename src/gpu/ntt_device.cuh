#pragma once
// Device-resident transforms for the prover: data stays in device memory,
// work is queued on the given stream and nothing synchronizes. Tables come
// from ntt_domain (built on first use of a size, which synchronizes once).
#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/fr_d.cuh"
#include "gpu/ntt.hpp"
#include "gpu/scale_op.cuh"

namespace cuzk::gpu {

// Decimation in frequency, natural order in, bit-reversed out, unscaled
// (inverse gives n times the inverse DFT). pre scales at the first load,
// post at the last store.
void ntt_nr_d(fr_d* x, uint32_t log_n, ntt_dir dir, const scale_op& pre, const scale_op& post, cudaStream_t s,
              ntt_config cfg = {});
// Decimation in time, bit-reversed order in, natural out, unscaled.
void ntt_rn_d(fr_d* x, uint32_t log_n, ntt_dir dir, const scale_op& pre, const scale_op& post, cudaStream_t s,
              ntt_config cfg = {});
void bit_reverse_d(fr_d* x, uint32_t log_n, cudaStream_t s);

// Natural order in and out, as gpu::ntt: passes plus one bit reversal.
void ntt_d(fr_d* x, uint32_t log_n, ntt_dir dir, bool coset, cudaStream_t s, ntt_config cfg = {});

// a, b, c: evaluations on H (2^log_n each). On return a holds the coefficients
// of H = (A·B - C)/Z as bellman's coset quotient gives it for any a, b, c;
// b and c are overwritten. 6 transforms (a and b to g·H and their product
// back, c to coefficients), 1 bit reversal, 2 elementwise passes.
void compute_h_d(fr_d* a, fr_d* b, fr_d* c, uint32_t log_n, cudaStream_t s, ntt_config cfg = {});

// x[i] = uniform-looking values < 2^254 (valid field elements), from seed and i; for benchmarks.
void fill_random_d(fr_d* x, size_t n, uint64_t seed, cudaStream_t s);

}  // namespace cuzk::gpu
