#pragma once
// Batched fixed-base scalar multiplication on the GPU: the Groth16 setup's
// millions of scalars times one generator (groth16/gpu_setup.hpp). Plain C++
// interface.
//
// `table` is ec::fixed_base_t's layout: for window w of 8 bits and digit d,
// table[w * 256 + d] = d * 2^(8w) * base in affine form, digit 0 at infinity;
// 32 windows cover a 256-bit scalar. One thread per scalar adds its nonzero
// digits' entries into an XYZZ accumulator (at most 32 mixed additions, no
// doublings) and normalizes it with one inversion (mont_d::inverse, the
// binary GCD of bingcd_d.cuh: ~60 products by count where Fermat took ~420;
// either is cheaper on the GPU than the host's batch inversion, which took
// ~90 % of a 32 GiB setup). out[i] is affine, infinity as (0, 0): affine
// coordinates are unique, so the result is the CPU's bit for bit.
// Throws std::invalid_argument on mismatched sizes, std::runtime_error on
// CUDA errors or in a build without CUDA.
#include <cstddef>
#include <span>

#include "ec/curves.hpp"
#include "ff/bigint.hpp"

namespace cuzk::gpu {

inline constexpr size_t fixed_base_windows = 32;
inline constexpr size_t fixed_base_digits = 256;

// scalars: canonical little-endian (fr_t::to_canonical()).
template <class C>
void fixed_base_mul(std::span<const ec::affine_t<C>> table, std::span<const ff::limbs_t<4>> scalars,
                    std::span<ec::affine_t<C>> out);

}  // namespace cuzk::gpu
