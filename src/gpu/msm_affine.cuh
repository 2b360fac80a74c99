#pragma once
// Bucket sums of the GPU Pippenger in affine coordinates with batched
// inversion (Montgomery's trick), the alternative to the XYZZ chunks of
// msm_algo.cuh. A mixed XYZZ addition costs 8M + 2S; an affine addition
// costs 3 products (lambda, lambda^2, lambda·(x1 - x3)) plus 3 for its share
// of a batched inversion, if thousands of independent additions share one
// inversion. So the sums are built as a tree of rounds, each round adding
// independent pairs:
//
// A round takes items sorted by key (window, magnitude), each a point. Within
// each run of equal keys, items at even offsets 0, 2, 4, ... lead: a leader
// and the item after it (if still in the run) become one output item, their
// sum; a run of one item is done and is added into its bucket (XYZZ, so a
// slice of a window may leave part of a run for the next slice). Outputs keep
// the runs' order, so the next round's items are again sorted. Round 0 reads
// its points from the bases through the digit values (index << 1 | sign).
//
// Per round: head_index + an inclusive max-scan give each item its run's
// start; flag_item finishes runs of one and marks the leaders that emit; an
// inclusive sum of the marks places the outputs (scatter_leader); then
// forward_pairs collects each pair's denominator into per-thread products
// (prefix products kept for the way back), the thread products are inverted
// by the same trick over plain field elements (batch_forward / batch_backward,
// recursively, with single inversions at the bottom), and backward_pairs
// unwinds each thread's products and finishes the additions.
//
// Everything here is written once for the kernels and for host emulation
// (tests run whole rounds on the CPU in CI).
#include <cstddef>
#include <cstdint>

#include "gpu/affine_d.cuh"
#include "gpu/msm_algo.cuh"
#include "gpu/xyzz_d.cuh"

namespace cuzk::gpu::msm_affine {

// Items per thread in forward_pairs / backward_pairs and in each level of the
// batched inversion, and the level size at which each element is inverted on
// its own (mont_d::inverse, the binary GCD).
constexpr uint32_t group = 16;
constexpr size_t single_below = size_t(1) << 14;

// The items of one round: keys and points (round 0: the bases through the digit values).
template <class F>
struct items_t {
  const uint32_t* key = nullptr;
  size_t n = 0;
  const affine_d<F>* pts = nullptr;  // rounds after the first
  const affine_d<F>* bases = nullptr;
  const uint32_t* vals = nullptr;  // round 0: index << 1 | negative

  CUZK_HD affine_d<F> point(size_t j) const {
    if (pts) return pts[j];
    const uint32_t v = vals[j];
    affine_d<F> p = bases[v >> 1];
    if (v & 1) p.y = -p.y;
    return p;
  }
  CUZK_HD bool same_run(size_t j) const { return j + 1 < n && key[j + 1] == key[j]; }
};

// j where item j starts a run, else 0; an inclusive max-scan then gives every item its run's start.
CUZK_HD uint32_t head_index(const uint32_t* key, size_t j) {
  return j == 0 || key[j] != key[j - 1] ? uint32_t(j) : 0u;
}

// 1 when item j leads a pair or carries a single item of a longer run to the
// next round. A run of one item (a leader with no follower at offset 0) is
// added into its bucket here. Keys of magnitude 0 (digit 0) are no bucket.
template <class F>
CUZK_HD uint32_t flag_item(const items_t<F>& it, const uint32_t* start, size_t j, uint32_t c, uint32_t buckets,
                           xyzz_d<F>* bucket_out) {
  const uint32_t k = it.key[j];
  if (msm_algo::key_magnitude(k, c) == 0) return 0;
  const size_t o = j - start[j];
  if (o % 2 != 0) return 0;
  if (o == 0 && !it.same_run(j)) {
    bucket_out[msm_algo::bucket_of(k, c, buckets)].add_mixed(it.point(j), false);
    return 0;
  }
  return 1;
}

// After the inclusive sum pos of the flags: leader j becomes output item pos[j] - 1.
CUZK_HD void scatter_leader(const uint32_t* key, const uint32_t* pos, size_t j, uint32_t* lead, uint32_t* next_key) {
  const uint32_t before = j == 0 ? 0u : pos[j - 1];
  if (pos[j] == before) return;
  lead[before] = uint32_t(j);
  next_key[before] = key[j];
}

enum class pair_kind : uint8_t { first, second, infinity, add, dbl };

// What a + b needs, and its denominator d (1 when it needs none).
template <class F>
CUZK_HD pair_kind classify_pair(const affine_d<F>& a, const affine_d<F>& b, F& d) {
  d = F::one();
  if (b.is_inf()) return pair_kind::first;
  if (a.is_inf()) return pair_kind::second;
  if (a.x != b.x) {
    d = b.x - a.x;
    return pair_kind::add;
  }
  // Same x: b = -a, or 2a with 2a at infinity when y = 0.
  if (a.y != b.y || a.y == F::zero()) return pair_kind::infinity;
  d = a.y.dbl();
  return pair_kind::dbl;
}

CUZK_HD bool needs_inverse(pair_kind k) { return k == pair_kind::add || k == pair_kind::dbl; }

// a + b given inv = 1/d of classify_pair.
template <class F>
CUZK_HD affine_d<F> finish_pair(pair_kind k, const affine_d<F>& a, const affine_d<F>& b, const F& inv) {
  switch (k) {
    case pair_kind::first:
      return a;
    case pair_kind::second:
      return b;
    case pair_kind::infinity:
      return {F::zero(), F::zero()};
    default:
      break;
  }
  F lambda;
  F x3;
  if (k == pair_kind::add) {
    lambda = (b.y - a.y) * inv;
    x3 = lambda.sqr() - a.x - b.x;
  } else {
    const F xx = a.x.sqr();
    lambda = (xx.dbl() + xx) * inv;
    x3 = lambda.sqr() - a.x.dbl();
  }
  return {x3, lambda * (a.x - x3) - a.y};
}

// Output item q of a round: the leader's point and its follower's (infinity when it has none).
template <class F>
CUZK_HD void pair_of(const items_t<F>& it, const uint32_t* lead, size_t q, affine_d<F>& a, affine_d<F>& b) {
  const size_t j = lead[q];
  a = it.point(j);
  if (it.same_run(j)) {
    b = it.point(j + 1);
  } else {
    b = {F::zero(), F::zero()};
  }
}

// Thread t of a batched pass owns items t, t + T, t + 2T, ... below m
// (consecutive threads touch consecutive items).
CUZK_HD size_t group_threads(size_t m) { return (m + group - 1) / group; }

// Thread t: prefix[q] = product of the denominators of t's items before q
// (written only where q needs one), prod[t] = product of all of them.
template <class F>
CUZK_HD void forward_pairs(const items_t<F>& it, const uint32_t* lead, size_t m, size_t t, F* prefix, F* prod) {
  const size_t T = group_threads(m);
  F acc = F::one();
  for (uint32_t i = 0; i < group; ++i) {
    const size_t q = t + T * i;
    if (q >= m) break;
    affine_d<F> a, b;
    pair_of(it, lead, q, a, b);
    F d;
    if (needs_inverse(classify_pair(a, b, d))) {
      prefix[q] = acc;
      acc = acc * d;
    }
  }
  prod[t] = acc;
}

// Thread t, with inv = 1/prod[t]: walks its items back, 1/d_q = inv · prefix[q]
// and inv <- inv · d_q, and writes each pair's sum to out[q].
template <class F>
CUZK_HD void backward_pairs(const items_t<F>& it, const uint32_t* lead, size_t m, size_t t, const F* prefix,
                            const F* inv_prod, affine_d<F>* out) {
  const size_t T = group_threads(m);
  F inv = inv_prod[t];
  for (uint32_t i = group; i-- > 0;) {
    const size_t q = t + T * i;
    if (q >= m) continue;
    affine_d<F> a, b;
    pair_of(it, lead, q, a, b);
    F d;
    const pair_kind k = classify_pair(a, b, d);
    F inv_q = F::one();
    if (needs_inverse(k)) {
      inv_q = inv * prefix[q];
      inv = inv * d;
    }
    out[q] = finish_pair(k, a, b, inv_q);
  }
}

// The same trick over field elements x[0, m), none zero: prefix and per-thread products ...
template <class F>
CUZK_HD void batch_forward(const F* x, size_t m, size_t t, F* prefix, F* prod) {
  const size_t T = group_threads(m);
  F acc = F::one();
  for (uint32_t i = 0; i < group; ++i) {
    const size_t q = t + T * i;
    if (q >= m) break;
    prefix[q] = acc;
    acc = acc * x[q];
  }
  prod[t] = acc;
}

// ... and, once inv_prod[t] = 1/prod[t], x[q] <- 1/x[q] in place.
template <class F>
CUZK_HD void batch_backward(F* x, size_t m, size_t t, const F* prefix, const F* inv_prod) {
  const size_t T = group_threads(m);
  F inv = inv_prod[t];
  for (uint32_t i = group; i-- > 0;) {
    const size_t q = t + T * i;
    if (q >= m) continue;
    const F xq = x[q];
    x[q] = inv * prefix[q];
    inv = inv * xq;
  }
}

}  // namespace cuzk::gpu::msm_affine
