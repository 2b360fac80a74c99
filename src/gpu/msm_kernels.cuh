#pragma once
// Kernels of the GPU MSM; the per-thread logic is msm_algo.cuh's.
#include <cstddef>
#include <cstdint>

#include "gpu/affine_d.cuh"
#include "gpu/fr_d.cuh"
#include "gpu/msm_affine.cuh"
#include "gpu/msm_algo.cuh"
#include "gpu/msm_lanes.cuh"
#include "gpu/xyzz_d.cuh"

namespace cuzk::gpu::msm_kernels {

template <class F>
struct base_group {
  const affine_d<F>* bases;
  __device__ __forceinline__ void add_entry(xyzz_d<F>& acc, uint32_t v) const {
    acc.add_mixed(bases[v >> 1], (v & 1) != 0);
  }
};

__device__ __forceinline__ size_t thread_id() { return size_t(blockIdx.x) * blockDim.x + threadIdx.x; }

// The kernels that are not templates get internal linkage: this header is
// compiled into both msm_g1.cu and msm_g2.cu.
namespace {

// Montgomery -> canonical (a product with the plain integer 1), and the 0 / 1 / other census.
__global__ void classify(const fr_d* __restrict__ scalars, size_t n, fr_d* __restrict__ canon,
                         uint8_t* __restrict__ is_one, uint8_t* __restrict__ is_other) {
  const size_t i = thread_id();
  if (i >= n) return;
  fr_d raw_one = fr_d::zero();
  raw_one.l[0] = 1;
  const fr_d s = scalars[i] * raw_one;
  canon[i] = s;
  uint32_t high = 0;
#pragma unroll
  for (int k = 1; k < 8; ++k) high |= s.l[k];
  const bool one = high == 0 && s.l[0] == 1;
  const bool zero = high == 0 && s.l[0] == 0;
  is_one[i] = one;
  is_other[i] = !one && !zero;
}

// Entry j of window w (first <= w < first + count) at (w - first)·m + j:
// coalesced writes per window. Lower windows are recoded again for their carry.
__global__ void digits(const fr_d* __restrict__ canon, const uint32_t* __restrict__ idx, size_t m, uint32_t c,
                       uint32_t first, uint32_t count, uint32_t* __restrict__ keys, uint32_t* __restrict__ vals) {
  const size_t j = thread_id();
  if (j >= m) return;
  const uint32_t i = idx[j];
  const fr_d s = canon[i];
  msm_algo::signed_windows(s.l, c, first + count, [&](uint32_t w, uint32_t mag, bool neg) {
    if (w < first) return;
    keys[size_t(w - first) * m + j] = (w << c) | mag;
    vals[size_t(w - first) * m + j] = (i << 1) | uint32_t(neg);
  });
}

}  // namespace

template <class F, int MIN_BLOCKS = 1>
__global__ void __launch_bounds__(128, MIN_BLOCKS)
    accumulate(const affine_d<F>* __restrict__ bases, const uint32_t* keys, const uint32_t* vals, size_t total,
               size_t L, size_t chunks, uint32_t c, uint32_t buckets, xyzz_d<F>* bucket_out, xyzz_d<F>* head_part,
               xyzz_d<F>* tail_part, uint8_t* tail_open) {
  const size_t t = thread_id();
  if (t >= chunks) return;
  base_group<F> g{bases};
  msm_algo::accumulate_chunk(g, keys, vals, total, L, t, c, buckets, bucket_out, head_part, tail_part, tail_open);
}

// Thread t sums chunks t·K .. t·K + K - 1 in affine lanes (msm_lanes.cuh).
template <class F, int K>
__global__ void __launch_bounds__(128)
    accumulate_lanes(const affine_d<F>* __restrict__ bases, const uint32_t* keys, const uint32_t* vals,
                     size_t total, size_t L, size_t chunks, size_t threads, uint32_t c, uint32_t buckets,
                     xyzz_d<F>* bucket_out, xyzz_d<F>* head_part, xyzz_d<F>* tail_part, uint8_t* tail_open) {
  const size_t t = thread_id();
  if (t >= threads) return;
  msm_lanes::accumulate_lanes<F, K>(bases, keys, vals, total, L, chunks, t, c, buckets, bucket_out, head_part,
                                    tail_part, tail_open);
}

template <class F>
__global__ void __launch_bounds__(128) fixup(const uint32_t* keys, size_t total, size_t L, size_t chunks, uint32_t c,
                                             uint32_t buckets, xyzz_d<F>* bucket_out, const xyzz_d<F>* head_part,
                                             const xyzz_d<F>* tail_part, const uint8_t* tail_open) {
  const size_t t = thread_id();
  if (t >= chunks) return;
  msm_algo::fixup_chunk(keys, total, L, t, c, buckets, bucket_out, head_part, tail_part, tail_open);
}

// Segment t of the bucket reduction: window w, buckets [lo, lo + seg) of it.
struct segment_t {
  size_t w;
  uint32_t lo;
  __device__ segment_t(size_t t, uint32_t buckets, uint32_t seg)
      : w(t / (buckets / seg)), lo(uint32_t(t % (buckets / seg)) * seg) {}
};

// Thread (w, j): running sums over window w's buckets [j·seg, (j+1)·seg), in place.
template <class F>
__global__ void __launch_bounds__(128) bucket_running(xyzz_d<F>* buckets_io, uint32_t buckets, uint32_t seg,
                                                      size_t total_segments) {
  const size_t t = thread_id();
  if (t >= total_segments) return;
  const segment_t g(t, buckets, seg);
  msm_algo::bucket_running_sums(buckets_io + g.w * buckets, g.lo, g.lo + seg);
}

// Thread (w, j), after bucket_running: run[t] = the segment's sum (its first
// running sum), acc[t] = the sum of its running sums.
template <class F>
__global__ void __launch_bounds__(128) segment_sums(const xyzz_d<F>* running, uint32_t buckets, uint32_t seg,
                                                    size_t total_segments, xyzz_d<F>* run, xyzz_d<F>* acc) {
  const size_t t = thread_id();
  if (t >= total_segments) return;
  const segment_t g(t, buckets, seg);
  const xyzz_d<F>* b = running + g.w * buckets;
  run[t] = b[g.lo];
  acc[t] = msm_algo::range_sum(b, g.lo, size_t(g.lo) + seg);
}

// In place: acc[t] += lo·run[t], lo the first bucket of the segment.
template <class F>
__global__ void __launch_bounds__(128) segment_finish(const xyzz_d<F>* run, uint32_t buckets, uint32_t seg,
                                                      size_t total_segments, xyzz_d<F>* acc) {
  const size_t t = thread_id();
  if (t >= total_segments) return;
  acc[t] = msm_algo::segment_finish(run[t], acc[t], segment_t(t, buckets, seg).lo);
}

// out[g·outs + k] = sum of in[g·size + k·fan, ...) within group g.
template <class F>
__global__ void __launch_bounds__(128) reduce_groups(const xyzz_d<F>* in, size_t groups, size_t size, uint32_t fan,
                                                     xyzz_d<F>* out) {
  const size_t t = thread_id();
  const size_t outs = (size + fan - 1) / fan;
  if (t >= groups * outs) return;
  const size_t g = t / outs, k = t % outs;
  const size_t lo = g * size + k * fan, hi = g * size + (k + 1) * fan < (g + 1) * size ? g * size + (k + 1) * fan
                                                                                       : (g + 1) * size;
  out[t] = msm_algo::range_sum(in, lo, hi);
}

// Affine bucket sums (msm_affine.cuh): one thread per item or per group of
// items. All are templates on the field, so only G1 (the one user) instantiates them.
template <class F>
__global__ void __launch_bounds__(256) affine_heads(const uint32_t* key, size_t n, uint32_t* out) {
  const size_t j = thread_id();
  if (j < n) out[j] = msm_affine::head_index(key, j);
}

template <class F>
__global__ void __launch_bounds__(128) affine_flags(msm_affine::items_t<F> it, const uint32_t* start, uint32_t c,
                                                    uint32_t buckets, xyzz_d<F>* bucket_out, uint32_t* flags) {
  const size_t j = thread_id();
  if (j < it.n) flags[j] = msm_affine::flag_item(it, start, j, c, buckets, bucket_out);
}

template <class F>
__global__ void __launch_bounds__(256) affine_scatter(const uint32_t* key, const uint32_t* pos, size_t n,
                                                      uint32_t* lead, uint32_t* next_key) {
  const size_t j = thread_id();
  if (j < n) msm_affine::scatter_leader(key, pos, j, lead, next_key);
}

template <class F>
__global__ void __launch_bounds__(128) affine_forward(msm_affine::items_t<F> it, const uint32_t* lead, size_t m,
                                                      F* prefix, F* prod) {
  const size_t t = thread_id();
  if (t < msm_affine::group_threads(m)) msm_affine::forward_pairs(it, lead, m, t, prefix, prod);
}

template <class F>
__global__ void __launch_bounds__(128) affine_backward(msm_affine::items_t<F> it, const uint32_t* lead, size_t m,
                                                       const F* prefix, const F* inv_prod, affine_d<F>* out) {
  const size_t t = thread_id();
  if (t < msm_affine::group_threads(m)) msm_affine::backward_pairs(it, lead, m, t, prefix, inv_prod, out);
}

template <class F>
__global__ void __launch_bounds__(128) batch_forward(const F* x, size_t m, F* prefix, F* prod) {
  const size_t t = thread_id();
  if (t < msm_affine::group_threads(m)) msm_affine::batch_forward(x, m, t, prefix, prod);
}

template <class F>
__global__ void __launch_bounds__(128) batch_backward(F* x, size_t m, const F* prefix, const F* inv_prod) {
  const size_t t = thread_id();
  if (t < msm_affine::group_threads(m)) msm_affine::batch_backward(x, m, t, prefix, inv_prod);
}

template <class F>
__global__ void __launch_bounds__(128) invert_each(F* x, size_t m) {
  const size_t t = thread_id();
  if (t < m) x[t] = x[t].inverse();
}

// Thread t sums the bases whose scalar is 1 at positions t, t + T, t + 2T, ...
template <class F>
__global__ void __launch_bounds__(128) sum_ones(const affine_d<F>* __restrict__ bases, const uint8_t* __restrict__ is_one,
                                                size_t n, xyzz_d<F>* out) {
  const size_t t = thread_id(), stride = size_t(gridDim.x) * blockDim.x;
  xyzz_d<F> acc = xyzz_d<F>::inf();
  for (size_t i = t; i < n; i += stride)
    if (is_one[i]) acc.add_mixed(bases[i], false);
  out[t] = acc;
}

namespace {

// Benchmark scalars: a hash of (seed, i) picks zero, one (Montgomery 1) or a
// uniform value below 2^254 < r, a valid Montgomery representative.
__global__ void random_scalars(fr_d* out, size_t n, uint64_t seed, uint32_t zero_pct, uint32_t one_pct) {
  const size_t i = thread_id();
  if (i >= n) return;
  uint64_t x = seed ^ (uint64_t(i) * 0x9e3779b97f4a7c15ull);
  auto next = [&x]() {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  const uint32_t pick = uint32_t(next() % 100);
  fr_d s;
  if (pick < zero_pct) {
    s = fr_d::zero();
  } else if (pick < zero_pct + one_pct) {
    s = fr_d::one();
  } else {
#pragma unroll
    for (int k = 0; k < 8; k += 2) {
      const uint64_t v = next();
      s.l[k] = uint32_t(v);
      s.l[k + 1] = uint32_t(v >> 32);
    }
    s.l[7] &= 0x3fffffffu;
  }
  out[i] = s;
}

}  // namespace

}  // namespace cuzk::gpu::msm_kernels
