#pragma once
// Device ceilings for benchmarks, each timed with CUDA events around kernels
// only (no transfers, no launches of setup work): the rate of Fr
// multiplication and the device-memory copy bandwidth. Also the test entry point
// of fr52_d, which lives here beside its probes while it is an experiment.
#include <cstddef>
#include <cstdint>
#include <span>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gpu/msm_config.hpp"

namespace cuzk::gpu {

// blocks x threads threads, each running two independent chains of
// muls_per_thread Fr multiplications. Milliseconds for the whole kernel.
double fr_mul_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread);
// The same with mont_d::mul_karatsuba instead of operator*'s CIOS product.
double fr_mul_karatsuba_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread);

// The same with Fr on the FP64 pipe (fr52_d: 52-bit limbs, DFMA products).
// This one and the next take at most 256 threads per block.
double fr52_mul_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread);

// Both pipes in one thread: each of iters_per_thread iterations runs two fr_d
// and two fr52_d multiplications (four independent chains), 4 in all.
double fr_mul_mixed_ms(uint32_t blocks, uint32_t threads, uint32_t iters_per_thread);

// Test entry point for fr52_d: prod[i] = a[i]·b[i] and chain[i] =
// ((a[i]·b[i])·b[i])·a[i], computed on the device in fr52_d (conversions from
// and to fr_d included; the chain runs on lazily reduced values).
void fr52_mul_check(std::span<const ff::fr_t> a, std::span<const ff::fr_t> b, std::span<ff::fr_t> prod,
                    std::span<ff::fr_t> chain);

// The same for Fp (the base field of G1 and, over Fp2, of G2).
double fp_mul_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread);
double fp_mul_karatsuba_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread);
// fp_mul_ms's chains with the CIOS product's final subtraction left out, as
// fp_lazy_d multiplies (values below 2p).
double fp_mul_lazy_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread);

// Fp on the FP64 pipe (fp52_d: 8 limbs of 52 bits, issue 19 item 2): chains
// independent chains of products per thread, at most 256 threads per block;
// all_registers: one block of 256 per SM may take every register (else two,
// at most 128 registers); rows: fp52_d::mul_rows (1, 2 or 4 chains), else
// operator* (1 or 2). Products per thread: chains x muls_per_thread.
double fp52_mul_ms(uint32_t chains, bool all_registers, bool rows, uint32_t blocks, uint32_t threads,
                   uint32_t muls_per_thread);
// Both pipes in one thread: each iteration one fp_d and one fp52_d::mul_rows product.
double fp_mul_mixed52_ms(uint32_t blocks, uint32_t threads, uint32_t iters_per_thread);
// Test entry point for fp52_d, as fr52_mul_check; prod by operator*, chain by
// fp52_d::mul_rows.
void fp52_mul_check(std::span<const ff::fp_t> a, std::span<const ff::fp_t> b, std::span<ff::fp_t> prod,
                    std::span<ff::fp_t> chain);

// One chain of Fp inversions per thread: the binary GCD (mont_d::inverse) or,
// fermat, a^(p-2).
double fp_inv_ms(bool fermat, uint32_t blocks, uint32_t threads, uint32_t invs_per_thread);

// Two chains of Fp squarings per thread: mont_d::sqr_sos (the dedicated
// square) and, for comparison, the CIOS product x·x (what sqr() is today).
double fp_sqr_ms(uint32_t blocks, uint32_t threads, uint32_t sqrs_per_thread);
double fp_sqr_by_mul_ms(uint32_t blocks, uint32_t threads, uint32_t sqrs_per_thread);

// blocks x threads threads, each adding adds_per_thread affine points into an
// XYZZ accumulator (G1's mixed addition, 8M + 2S) with the points in L1: the
// arithmetic ceiling of the MSM's bucket accumulation.
// form: the Fp form (fp_form in msm_config.hpp: fp_d, fp_lazy_unfused_d or
// fp_lazy_d).
double g1_add_mixed_ms(fp_form form, uint32_t blocks, uint32_t threads, uint32_t adds_per_thread);

// Fp2 products (two chains per thread, as fp_mul_ms) and G2 mixed additions
// (as g1_add_mixed_ms: 8 Fp2 products and 2 squares each), with the product
// of three reductions (fp2_d) or of two (fp2_lazy_d, what the MSM uses), over
// Fp values below p or below 2p (fp_lazy_d).
double fp2_mul_ms(bool two_reductions, bool below_2p, uint32_t blocks, uint32_t threads, uint32_t muls_per_thread);
// G2 mixed additions: product as msm_timer::msm_ms_fp2 (the fused difference
// over values below p only; std::invalid_argument otherwise).
double g2_add_mixed_ms(fp2_product product, bool below_2p, uint32_t blocks, uint32_t threads,
                       uint32_t adds_per_thread);

// cudaMemcpy device to device of bytes bytes (bandwidth = 2·bytes / time).
double d2d_copy_ms(size_t bytes);

}  // namespace cuzk::gpu
