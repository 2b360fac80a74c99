#pragma once
// In-place bit-reversal permutation of 2^log_n elements. Write an index as
// (hi, m, lo) with hi and lo of cb bits: its image is (rev lo, rev m, rev hi).
// A block takes the middle value m and its partner rev m, loads both 2^cb x
// 2^cb tiles (runs of 2^cb consecutive elements, 512 bytes at cb = 4),
// swaps them transposed through shared memory and writes them back; blocks
// with rev m < m have nothing to do. One read and one write of the array.
#include <cstdint>

#include "gpu/fr_d.cuh"
#include "gpu/fr_io.cuh"

namespace cuzk::gpu {

template <uint32_t CB_MAX>
__global__ void __launch_bounds__(256) bit_reverse_kernel(fr_d* data, uint32_t log_n, uint32_t cb) {
  constexpr uint32_t S = 1u << CB_MAX;
  __shared__ fr_d ta[S * S], tb[S * S];
  const uint32_t mb = log_n - 2 * cb;
  const uint32_t m = blockIdx.x;
  const uint32_t mr = mb ? __brev(m) >> (32 - mb) : 0;
  if (mr < m) return;
  const uint32_t side = 1u << cb, cnt = side * side, hs = log_n - cb;
  auto rev_cb = [cb](uint32_t x) { return cb ? __brev(x) >> (32 - cb) : 0u; };

  for (uint32_t i = threadIdx.x; i < cnt; i += blockDim.x) {
    const uint32_t hi = i >> cb, l = i & (side - 1);
    ta[i] = load_f(data + ((hi << hs) | (m << cb) | l));
    if (mr != m) tb[i] = load_f(data + ((hi << hs) | (mr << cb) | l));
  }
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < cnt; i += blockDim.x) {
    const uint32_t hi = i >> cb, l = i & (side - 1);
    const uint32_t src = (rev_cb(l) << cb) | rev_cb(hi);
    store_f(data + ((hi << hs) | (mr << cb) | l), ta[src]);
    if (mr != m) store_f(data + ((hi << hs) | (m << cb) | l), tb[src]);
  }
}

}  // namespace cuzk::gpu
