#pragma once
// The index logic of the GPU Pippenger, written once for the kernels and for
// host emulation: tests run it on the CPU over an integer "group" (points are
// numbers, addition is +), so CI checks recoding, chunk ownership, the
// boundary fix-up and the weighted bucket sums without a GPU.
//
// Data flow (msm_impl.cuh): each scalar s other than 0 and 1 yields one entry
// per window w, key = (w << c) | |d_w| and value = (index << 1) | (d_w < 0);
// each window's entries are radix-sorted by key; the concatenation over all
// windows is then sorted by (window, magnitude), and bucket (w, mag) is a run
// of equal keys. The runs are summed by threads that own fixed-size chunks of
// the sorted array (balanced whatever the distribution of digits): a run
// inside a chunk is written by its thread; a run that crosses into later
// chunks is finished by the thread where it starts, which adds the head sums
// the later chunks left behind (fixup_chunk).
//
// Group policy G: point type G::point with inf(), add(point), dbl();
// G::add_entry(point&, uint32_t value) adds +-base[value >> 1].
#include <cstddef>
#include <cstdint>

#include "gpu/carry_chain.cuh"

namespace cuzk::gpu::msm_algo {

// Bits [pos, pos + c) of a 256-bit scalar in 8 little-endian 32-bit limbs (c <= 32).
CUZK_HD uint32_t scalar_bits(const uint32_t* s, uint32_t pos, uint32_t c) {
  if (pos >= 256) return 0;
  const uint32_t limb = pos / 32, sh = pos % 32;
  uint64_t v = s[limb] >> sh;
  if (sh != 0 && limb + 1 < 8) v |= uint64_t(s[limb + 1]) << (32 - sh);
  else if (sh == 0 && limb + 1 < 8) v |= uint64_t(s[limb + 1]) << 32;
  return uint32_t(v & ((uint64_t(1) << c) - 1));
}

// Signed windows, low to high: d_w in [-2^(c-1), 2^(c-1)], the carry of a
// lowered window going up (the recoding of msm::signed_digits_t).
// emit(w, magnitude, negative); magnitude 0 means no bucket.
template <class Emit>
CUZK_HD void signed_windows(const uint32_t* s, uint32_t c, uint32_t windows, Emit&& emit) {
  const uint32_t half = uint32_t(1) << (c - 1), full = uint32_t(1) << c;
  uint32_t carry = 0;
  for (uint32_t w = 0; w < windows; ++w) {
    const uint32_t v = scalar_bits(s, w * c, c) + carry;
    if (v >= half) {
      emit(w, full - v, true);
      carry = 1;
    } else {
      emit(w, v, false);
      carry = 0;
    }
  }
}

CUZK_HD uint32_t key_magnitude(uint32_t key, uint32_t c) { return key & ((uint32_t(1) << c) - 1); }
// Bucket of key (window w, magnitude >= 1) in the flat bucket array.
CUZK_HD size_t bucket_of(uint32_t key, uint32_t c, uint32_t buckets) {
  return size_t(key >> c) * buckets + key_magnitude(key, c) - 1;
}

// Where the sum of one run goes: its bucket when the run lies in this chunk;
// head_part[t] when it started in an earlier chunk; tail_part[t] (and
// tail_open[t]) when it starts here and continues into later chunks.
template <class P>
CUZK_HD void store_run(const P& acc, uint32_t key, bool owned, bool continues, size_t t, uint32_t c, uint32_t buckets,
                       P* bucket_out, P* head_part, P* tail_part, uint8_t* tail_open) {
  if (key_magnitude(key, c) == 0) return;
  if (!owned) {
    head_part[t] = acc;
  } else if (continues) {
    tail_part[t] = acc;
    tail_open[t] = 1;
  } else {
    bucket_out[bucket_of(key, c, buckets)] = acc;
  }
}

// Chunk t of the sorted entries [t·L, min((t+1)·L, total)), one entry per
// loop trip whatever the runs: on a GPU the 32 threads of a warp then stay
// in step. (A loop per run, nested in a loop over runs, left lanes idle
// until the warp's longest run ended: 24.5 of 32 lanes active, ncu on an
// H200.)
template <class G, class P>
CUZK_HD void accumulate_chunk(G& g, const uint32_t* keys, const uint32_t* vals, size_t total, size_t L, size_t t,
                              uint32_t c, uint32_t buckets, P* bucket_out, P* head_part, P* tail_part,
                              uint8_t* tail_open) {
  const size_t begin = t * L, end = begin + L < total ? begin + L : total;
  tail_open[t] = 0;
  if (begin >= end) return;
  uint32_t key = keys[begin];
  bool owned = begin == 0 || keys[begin - 1] != key;
  P acc = P::inf();
  for (size_t e = begin; e < end; ++e) {
    const uint32_t k = keys[e];
    if (k != key) {  // the previous run ended inside this chunk
      store_run(acc, key, owned, false, t, c, buckets, bucket_out, head_part, tail_part, tail_open);
      key = k;
      owned = true;
      acc = P::inf();
    }
    if (key_magnitude(key, c) != 0) g.add_entry(acc, vals[e]);
  }
  const bool continues = end < total && keys[end] == key;
  store_run(acc, key, owned, continues, t, c, buckets, bucket_out, head_part, tail_part, tail_open);
}

// After every chunk ran: a run that starts in chunk t and continues collects
// the head sums of the chunks it covers.
template <class P>
CUZK_HD void fixup_chunk(const uint32_t* keys, size_t total, size_t L, size_t t, uint32_t c, uint32_t buckets,
                         P* bucket_out, const P* head_part, const P* tail_part, const uint8_t* tail_open) {
  if (!tail_open[t]) return;
  const size_t end = (t + 1) * L;  // < total, since the run continues
  const uint32_t key = keys[end - 1];
  P acc = tail_part[t];
  for (size_t u = t + 1;; ++u) {
    acc.add(head_part[u]);
    const size_t uend = (u + 1) * L;
    if (!(uend < total && keys[uend - 1] == key && keys[uend] == key)) break;
  }
  bucket_out[bucket_of(key, c, buckets)] = acc;
}

// k·x by double-and-add (k small: a bucket offset).
template <class P>
CUZK_HD P mul_small(const P& x, uint32_t k) {
  P r = P::inf();
  for (int i = 31; i >= 0; --i) {
    if (!r.is_inf()) r = r.dbl();
    if ((k >> i) & 1) r.add(x);
  }
  return r;
}

// In place over k in [lo, hi), from the top: b[k] <- b[k] + ... + b[hi - 1]
// (running sums). Bucket k holds magnitude k + 1, so afterwards the segment's
// sum is b[lo] and sum (k - lo + 1)·b[k] of the original buckets is the
// plain sum of the running sums (range_sum); the weighted sum of the segment
// is that plus lo·b[lo] (segment_finish). Two passes with one live
// accumulator each: a single pass keeping both sums spilled the G2 kernel
// (32 registers, 4.6 KB of stack, 195 ms of a 2^24 G2 MSM at c = 20).
template <class P>
CUZK_HD void bucket_running_sums(P* b, uint32_t lo, uint32_t hi) {
  P run = P::inf();
  for (uint32_t k = hi; k-- > lo;) {
    run.add(b[k]);
    b[k] = run;
  }
}

template <class P>
CUZK_HD P segment_finish(const P& run, const P& acc, uint32_t lo) {
  P r = mul_small(run, lo);
  r.add(acc);
  return r;
}

// Sum of in[lo, hi).
template <class P>
CUZK_HD P range_sum(const P* in, size_t lo, size_t hi) {
  P acc = P::inf();
  for (size_t i = lo; i < hi; ++i) acc.add(in[i]);
  return acc;
}

}  // namespace cuzk::gpu::msm_algo
