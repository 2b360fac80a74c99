#pragma once
// Bucket sums in affine coordinates with one inversion per K additions,
// without rounds (issue 19 item 1; msm_sums::lanes, G1 only).
//
// The sorted entries are cut into chunks of L as for the XYZZ sums
// (msm_algo.cuh), and the same fix-up joins runs across chunks; thread t
// walks its K chunks t·K .. t·K + K - 1 in lock step, one entry of each per
// step. A chunk's running sum is an affine point, so adding a base costs a
// slope: λ = (y_b - y)/(x_b - x), x' = λ² - x - x_b, y' = λ(x - x') - y.
// The K denominators of a step share one inversion (Montgomery's trick:
// prefix products forward, then one inverse walked backward), a binary GCD
// (mont_d::inverse, bingcd_d.cuh: ~60 products) instead of Fermat (~420). Per
// addition: 1 product forward, 2 backward, 3 for the slope and the new
// point, plus 1/K of the inversion, against ~10 for an XYZZ mixed addition.
//
// The K lanes' state (sum, prefix product, key, entry) lives in the
// thread's local memory: ~160 bytes a lane. No host synchronisation and no
// scratch beyond the XYZZ sums' chunk parts (K times as many chunks).
//
// Rare cases take the exact formula: a base at infinity is skipped; the first
// entry of a run becomes the sum; a base with the sum's x (the same point,
// or its negative) doubles through XYZZ with an inversion of its own, or empties
// the sum. Host-compilable: CI runs it over real points (test_gpu_msm_emulated).
#include <cstddef>
#include <cstdint>

#include "gpu/affine_d.cuh"
#include "gpu/msm_algo.cuh"
#include "gpu/xyzz_d.cuh"

#if defined(__CUDA_ARCH__)
#define CUZK_LOOP_ONCE _Pragma("unroll 1")
#else
#define CUZK_LOOP_ONCE
#endif

namespace cuzk::gpu::msm_lanes {

template <class F>
struct lane_t {
  F x, y;        // the run's sum so far, when has
  F prefix;      // product of this step's pending denominators through this lane
  uint32_t key;  // the run's key
  uint32_t val;  // the entry added this step, when pending
  uint8_t active, owned, has, pending;
};

template <class F>
CUZK_HD xyzz_d<F> as_xyzz(const lane_t<F>& l) {
  return l.has ? xyzz_d<F>{l.x, l.y, F::one(), F::one()} : xyzz_d<F>::inf();
}

// Thread t: chunks t·K .. t·K + K - 1 of the `chunks` chunks of L entries
// (the last may be short). Writes what msm_algo::accumulate_chunk writes for
// each of them, so msm_algo::fixup_chunk finishes the runs.
template <class F, int K>
CUZK_HD void accumulate_lanes(const affine_d<F>* bases, const uint32_t* keys, const uint32_t* vals, size_t total,
                              size_t L, size_t chunks, size_t t, uint32_t c, uint32_t buckets,
                              xyzz_d<F>* bucket_out, xyzz_d<F>* head_part, xyzz_d<F>* tail_part,
                              uint8_t* tail_open) {
  lane_t<F> lane[K];
  const size_t first = t * K;
  CUZK_LOOP_ONCE
  for (int j = 0; j < K; ++j) {
    lane_t<F>& l = lane[j];
    const size_t ch = first + size_t(j), begin = ch * L;
    l.active = ch < chunks && begin < total;
    l.has = 0;
    l.pending = 0;
    l.owned = 0;
    l.key = 0;
    if (ch < chunks) tail_open[ch] = 0;
    if (!l.active) continue;
    l.key = keys[begin];
    l.owned = begin == 0 || keys[begin - 1] != l.key;
  }
  for (size_t s = 0; s < L; ++s) {
    F run = F::one();
    CUZK_LOOP_ONCE
    for (int j = 0; j < K; ++j) {
      lane_t<F>& l = lane[j];
      l.pending = 0;
      const size_t ch = first + size_t(j), e = ch * L + s;
      if (l.active && e < total) {
        const uint32_t k = keys[e];
        if (k != l.key) {  // the previous run ended inside this chunk
          msm_algo::store_run(as_xyzz(l), l.key, l.owned != 0, false, ch, c, buckets, bucket_out, head_part,
                              tail_part, tail_open);
          l.key = k;
          l.owned = 1;
          l.has = 0;
        }
        if (msm_algo::key_magnitude(k, c) != 0) {
          const uint32_t v = vals[e];
          const affine_d<F> b = bases[v >> 1];
          const F by = (v & 1) != 0 ? -b.y : b.y;
          if (b.is_inf()) {
          } else if (!l.has) {
            l.x = b.x;
            l.y = by;
            l.has = 1;
          } else {
            const F d = b.x - l.x;
            if (!d.is_zero()) {
              l.val = v;
              l.pending = 1;
              run = run * d;
            } else if ((by - l.y).is_zero()) {  // the same point: double it
              const affine_d<F> a = xyzz_d<F>::dbl_affine(l.x, l.y).to_affine();
              l.x = a.x;
              l.y = a.y;
              l.has = !a.is_inf();
            } else {  // its negative: the sum is empty
              l.has = 0;
            }
          }
        }
      }
      l.prefix = run;
    }
    F inv = run.inverse();  // the binary GCD (mont_d::inverse)
    CUZK_LOOP_ONCE
    for (int j = K - 1; j >= 0; --j) {
      lane_t<F>& l = lane[j];
      if (!l.pending) continue;
      const F before = j > 0 ? lane[j - 1].prefix : F::one();
      const affine_d<F> b = bases[l.val >> 1];
      const F by = (l.val & 1) != 0 ? -b.y : b.y;
      const F inv_d = inv * before;  // 1/(x_b - x)
      inv = inv * (b.x - l.x);
      const F lam = (by - l.y) * inv_d;
      const F x3 = lam.sqr() - l.x - b.x;
      l.y = lam * (l.x - x3) - l.y;
      l.x = x3;
    }
  }
  CUZK_LOOP_ONCE
  for (int j = 0; j < K; ++j) {
    const lane_t<F>& l = lane[j];
    if (!l.active) continue;
    const size_t ch = first + size_t(j), end = (ch + 1) * L < total ? (ch + 1) * L : total;
    const bool continues = end < total && keys[end] == l.key;
    msm_algo::store_run(as_xyzz(l), l.key, l.owned != 0, continues, ch, c, buckets, bucket_out, head_part,
                        tail_part, tail_open);
  }
}

// The chunking for `total` sorted entries over about `threads` threads of K
// lanes: L entries a chunk (at least 1), and the chunk and thread counts.
struct lanes_plan {
  size_t L, chunks, threads;
  CUZK_HD static lanes_plan make(size_t total, size_t threads, size_t K) {
    const size_t want = threads * K;
    size_t L = (total + want - 1) / want;
    if (L == 0) L = 1;
    const size_t chunks = (total + L - 1) / L;
    return {L, chunks, (chunks + K - 1) / K};
  }
};

}  // namespace cuzk::gpu::msm_lanes
