#pragma once
// Number-theoretic transforms over Fr on the CPU, multithreaded with oneTBB.
// Every function runs in the caller's TBB arena: wrap a call in
// tbb::task_arena(1).execute(...) (or a tbb::global_control) to keep it on one thread.
//
// Layout (see ntt_layout): a transform of 2^k points is a four-step split into
// column DFTs of up to 2^10 points, gathered in tiles so that each pass over
// memory reads whole cache lines, followed by independent 2^12-point leaves done
// radix-2 in L2. Twiddles between the steps are chained per column from one pow
// per tile, so tables stay O(leaf) even at 2^27 (a full table would be 2 GiB
// there); the chain costs about 2/log n extra multiplications per pass.
// Measured on a 2-core Zen 5 VM (single thread, 2^22): ~50 ns per butterfly,
// bound by the Fr multiplication, within 5 % of a plain radix-2 with whole-array
// stages; the split pays where many cores share memory bandwidth, since it
// sweeps memory twice at 2^22 instead of 22 times (not measured here).
#include <span>

#include "poly/domain.hpp"

namespace cuzk::poly {

enum class ntt_dir { forward, inverse };

// Natural order in, natural order out. x.size() must equal d.n (std::invalid_argument otherwise).
void ntt(const domain_t& d, std::span<fr_t> x);         // coefficients -> evaluations on H
void intt(const domain_t& d, std::span<fr_t> x);        // evaluations on H -> coefficients (scaled by 1/n)
void coset_ntt(const domain_t& d, std::span<fr_t> x);   // coefficients -> evaluations on g·H
void coset_intt(const domain_t& d, std::span<fr_t> x);  // evaluations on g·H -> coefficients

// Order-explicit kernels, unscaled (the inverse direction yields n times the
// inverse DFT). Chaining nr then rn avoids both bit-reversal passes.
// Decimation in frequency: natural order in, bit-reversed order out.
void ntt_nr(const domain_t& d, std::span<fr_t> x, ntt_dir dir);
// Decimation in time: bit-reversed order in, natural order out.
void ntt_rn(const domain_t& d, std::span<fr_t> x, ntt_dir dir);

// x[i] <-> x[bit_reverse(i)], size a power of two; tiled so both sides of every
// swap are read as runs of consecutive elements.
void bit_reverse(std::span<fr_t> x);

// x[i] *= c * r^i.
void mul_by_powers(std::span<fr_t> x, const fr_t& c, const fr_t& r);
// x[i] *= c * r^bit_reverse(i): the same scaling for a vector held in bit-reversed order.
void mul_by_powers_bit_reversed(std::span<fr_t> x, const fr_t& c, const fr_t& r);

}  // namespace cuzk::poly
