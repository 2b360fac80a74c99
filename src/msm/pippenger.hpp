#pragma once
// Pippenger's bucket method with signed-digit windows (see signed_digits.hpp):
// per window, every point is added to (or, for a negative digit, subtracted
// from) the bucket of its digit's magnitude in XYZZ coordinates, then the
// window sum sum_j j * B_j comes out of a running sum from the top bucket down
// (two additions per bucket), and the windows are joined by c doublings each.
// Bernstein, Doumen, Lange, Oosterwijk, "Faster batch forgery identification"
// (INDOCRYPT 2012), section 4, for the bucket method; the running sum is its usual
// reduction step.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/curves.hpp"
#include "msm/pippenger_plan.hpp"
#include "msm/point_index.hpp"
#include "msm/signed_digits.hpp"

namespace cuzk::msm {

namespace detail {

// A bucket is 3 (G1) or 6 (G2) cache lines; the digit of the next point is known
// one addition (~0.3 us) ahead, plenty to hide a miss in a multi-MiB bucket array.
// Every cache line the object touches (a 96-byte point straddles three of them
// when it does not start on a line).
template <class T>
inline void prefetch_object(const T* p, bool for_write) {
  uintptr_t first = reinterpret_cast<uintptr_t>(p) & ~uintptr_t(63);
  uintptr_t last = reinterpret_cast<uintptr_t>(p) + sizeof(T) - 1;
  for (uintptr_t a = first; a <= last; a += 64) {
    if (for_write) __builtin_prefetch(reinterpret_cast<const void*>(a), 1, 3);
    else __builtin_prefetch(reinterpret_cast<const void*>(a), 0, 3);
  }
}

}  // namespace detail

// sum_j (j + 1) * buckets[j] by running sums from the top: the partial sum of
// buckets j.. is added once for every j below it.
template <class C>
ec::xyzz_t<C> reduce_buckets(std::span<const ec::xyzz_t<C>> buckets) {
  ec::xyzz_t<C> running = ec::xyzz_t<C>::infinity(), total = ec::xyzz_t<C>::infinity();
  for (size_t j = buckets.size(); j-- > 0;) {
    running.add(buckets[j]);
    total.add(running);
  }
  return total;
}

// Window w's sum over positions [begin, end) of idx; buckets is scratch of sd.buckets().
template <class C>
ec::xyzz_t<C> window_sum(std::span<const ec::affine_t<C>> bases, std::span<const scalar_limbs_t> scalars,
                         point_index_t idx, size_t begin, size_t end, const signed_digits_t& sd, unsigned w,
                         std::span<ec::xyzz_t<C>> buckets) {
  std::fill(buckets.begin(), buckets.end(), ec::xyzz_t<C>::infinity());
  if (begin == end) return ec::xyzz_t<C>::infinity();
  int next = sd.digit(scalars[idx[begin]], w);
  for (size_t i = begin; i < end; ++i) {
    int d = next;
    size_t k = idx[i];
    if (i + 1 < end) {
      size_t k1 = idx[i + 1];
      next = sd.digit(scalars[k1], w);
      if (next) {
        detail::prefetch_object(&buckets[size_t(next > 0 ? next : -next) - 1], true);
        detail::prefetch_object(&bases[k1], false);
      }
    }
    if (d > 0) buckets[size_t(d) - 1].add_mixed(bases[k]);
    else if (d < 0) buckets[size_t(-d) - 1].sub_mixed(bases[k]);
  }
  return reduce_buckets<C>(buckets);
}

// sum over i of scalars[idx[i]] * bases[idx[i]], with P * W tasks run by oneTBB.
template <class C>
ec::jacobian_t<C> pippenger(std::span<const ec::affine_t<C>> bases, std::span<const scalar_limbs_t> scalars,
                            point_index_t idx, const pippenger_plan_t& plan) {
  using X = ec::xyzz_t<C>;
  using J = ec::jacobian_t<C>;
  const signed_digits_t sd(plan.window_bits);
  const size_t n = idx.size(), W = sd.windows(), P = plan.chunks;
  std::vector<X> sums(P * W, X::infinity());
  // Task t = (chunk t / W, window t % W): threads that run neighbouring tasks
  // read the same chunk of bases at about the same time.
  tbb::parallel_for(
      tbb::blocked_range<size_t>(0, P * W, 1),
      [&](const tbb::blocked_range<size_t>& r) {
        std::vector<X> buckets(sd.buckets());
        for (size_t t = r.begin(); t != r.end(); ++t) {
          size_t p = t / W, w = t % W;
          sums[t] = window_sum<C>(bases, scalars, idx, n * p / P, n * (p + 1) / P, sd, unsigned(w), buckets);
        }
      },
      tbb::simple_partitioner());
  J acc = J::infinity();
  for (size_t w = W; w-- > 0;) {
    for (unsigned i = 0; i < sd.window_bits(); ++i) acc = acc.dbl();
    X s = X::infinity();
    for (size_t p = 0; p < P; ++p) s.add(sums[p * W + w]);
    acc += s.to_jacobian();
  }
  return acc;
}

}  // namespace cuzk::msm
