#pragma once
// How a Pippenger MSM is cut into parallel tasks: the window width c and the
// number of point chunks P. Each task is one (chunk, window) pair, so there are
// P * W equal tasks. Splitting windows is free (every window is recoded on its
// own, see signed_digits.hpp); splitting points is not: every chunk pays its
// own bucket reduction, 2^(c-1) buckets at two XYZZ additions each, and its own
// window sums. The plan minimises a makespan estimate in units of one XYZZ mixed
// addition (8M + 2S; for G1 on the 2-core EPYC dev box 0.49 us with the x86
// field code, 0.9 us with the portable one):
//   ceil(P W / T) * (n / P * 1.03 + 2^(c-1) * 2.0)   parallel tasks
//   + W c * 0.7 + P W * 1.4                           sequential combine
// 1.03 covers the digit scan per point and window, 0.7 a Jacobian doubling, 1.4
// a full XYZZ addition (12M + 2S). The bucket term, two full additions per bucket,
// came out at 1.75 rather than 2.8 when fitted to one-thread G1 runs at 2^18 over
// c = 12..18 (empty buckets are skipped and the sweep stays in cache); 2.0 is used.
#include <algorithm>
#include <cstddef>

#include "msm/signed_digits.hpp"

namespace cuzk::msm {

struct pippenger_plan_t {
  unsigned window_bits = 0;
  size_t chunks = 1;

  // Estimated makespan of this plan on `threads` threads, in mixed additions.
  double cost(size_t n, size_t threads) const {
    double W = signed_digits_t(window_bits).windows(), P = double(chunks);
    double rounds = double((chunks * size_t(W) + threads - 1) / threads);
    double task = double(n) / P * 1.03 + double(size_t(1) << (window_bits - 1)) * 2.0;
    return rounds * task + W * window_bits * 0.7 + P * W * 1.4;
  }

  // c stops at 16 unless forced: at 2^18 points on one thread, c = 13..16 were
  // within 5 % of each other, c = 17 11 % and c = 18 35 % slower than c = 13
  // (2^16 G1 XYZZ buckets are 12 MiB, past the caches).
  static pippenger_plan_t choose(size_t n, size_t threads, unsigned forced_bits = 0) {
    threads = threads ? threads : 1;
    unsigned c_lo = forced_bits ? forced_bits : signed_digits_t::min_bits;
    unsigned c_hi = forced_bits ? forced_bits : 16;
    size_t p_hi = std::max<size_t>(1, std::min(n, 4 * threads));
    pippenger_plan_t best{c_lo, 1};
    double best_cost = best.cost(n, threads);
    for (unsigned c = c_lo; c <= c_hi; ++c) {
      for (size_t p = 1; p <= p_hi; ++p) {
        pippenger_plan_t cand{c, p};
        double k = cand.cost(n, threads);
        if (k < best_cost) best = cand, best_cost = k;
      }
    }
    return best;
  }
};

}  // namespace cuzk::msm
