// The GPU NTT's pass code run on the host: ntt_pass's per-element steps,
// block after block, over host copies of the device tables, with the device
// field emulated by carry_chain. Runs everywhere (no GPU needed), so CI checks
// the indexing, the twiddles and the fused scalings of every pass shape,
// including tiny tiles that give 2^10 points four passes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "gpu/ntt_pass.cuh"
#include "gpu/ntt_pass_shape.hpp"
#include "gpu/ntt_reference.hpp"
#include "gpu/ntt_tables.hpp"
#include "test_seed.hpp"

namespace {

using namespace cuzk::gpu;
using namespace cuzk::gpu::test;

struct host_tile {
  std::vector<fr_d>* v;
  fr_d get(uint32_t i) const { return (*v)[i]; }
  void put(uint32_t i, const fr_d& x) const { (*v)[i] = x; }
};

// ntt_tables with its array copied to fr_d storage (16-byte aligned, as on the device).
struct host_domain {
  ntt_tables t;
  std::vector<fr_d> data;
  explicit host_domain(uint32_t log_n) : t(log_n), data(t.data.size()) {
    std::memcpy(data.data(), t.data.data(), data.size() * sizeof(fr_d));
  }
  fr_d to_d(const fr_t& x) const {
    fr_d r;
    std::memcpy(&r, &x, sizeof r);
    return r;
  }
};

template <bool DIT>
void run_pass(const ntt_pass& p) {
  std::vector<fr_d> smem(p.tile_size());
  const host_tile tile{&smem};
  for (uint32_t bid = 0; bid < p.blocks(); ++bid) {
    const uint32_t base = p.block_base(bid);
    for (uint32_t i = 0; i < p.tile_size(); ++i) p.load<DIT>(tile, base, i);
    for (uint32_t level = 0; level < p.k; ++level) {
      const uint32_t lh = p.level_span_log<DIT>(level);
      for (uint32_t b = 0; b < p.tile_size() / 2; ++b) p.butterfly<DIT>(tile, lh, b);
    }
    for (uint32_t i = 0; i < p.tile_size(); ++i) p.store<DIT>(tile, base, i);
  }
}

// As ntt_nr_d / ntt_rn_d, on the host.
// use_direct = false hides the direct twiddle table so that small sizes also
// take the two-table path (on the device it is only taken above 2^20).
void emulate(std::vector<fr_d>& x, const host_domain& d, uint32_t tile_log, bool inverse, bool dit,
             const scale_op& pre, const scale_op& post, bool use_direct) {
  auto passes = ntt_pass_shape::plan(d.t.log_n, tile_log);
  if (dit) std::reverse(passes.begin(), passes.end());
  const int di = inverse ? 1 : 0;
  for (size_t i = 0; i < passes.size(); ++i) {
    ntt_pass p{};
    p.data = x.data();
    p.log_n = d.t.log_n;
    p.lo = passes[i].lo;
    p.k = passes[i].k;
    p.c = passes[i].c;
    p.inner = d.data.data() + d.t.inner[di];
    p.tw = d.t.view(d.t.tw[di], d.data.data());
    p.direct = d.data.data() + d.t.direct[di];
    p.direct_log = use_direct ? d.t.direct_log : 0;
    if (i == 0) p.pre = pre;
    if (i + 1 == passes.size()) p.post = post;
    if (dit) run_pass<true>(p);
    else run_pass<false>(p);
  }
}

std::vector<fr_d> to_dvec(const std::vector<fr_t>& v) {
  std::vector<fr_d> r(v.size());
  std::memcpy(r.data(), v.data(), v.size() * sizeof(fr_t));
  return r;
}
std::vector<fr_t> to_hvec(const std::vector<fr_d>& v) {
  std::vector<fr_t> r(v.size());
  std::memcpy(r.data(), v.data(), v.size() * sizeof(fr_t));
  return r;
}

// Every pass shape from one pass to four, at sizes the reference checks
// quickly; {15, 8} and {17, 11} have passes of several levels with >= 3
// batch bits (butterflies ordered by twiddle index).
const std::pair<uint32_t, uint32_t> cases[] = {  // {log_n, tile_log}
    {1, 11}, {3, 11}, {9, 4}, {10, 5}, {11, 11}, {12, 11}, {13, 12}, {14, 5}, {15, 8}, {17, 11}};

TEST(gpu_ntt_emulated, nr_then_bit_reverse_matches_reference) {
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt_emulated.nr"));
  for (auto [log_n, tile_log] : cases) {
    const host_domain d(log_n);
    const auto x = random_vec(rng, size_t(1) << log_n);
    for (bool inverse : {false, true}) {
      for (bool coset : {false, true}) {
        // As ntt_d: the coset forward scales at load, the inverse scales at store.
        scale_op pre{}, post{};
        if (!inverse && coset) pre = scale_op::by_powers(d.t.view(d.t.coset, d.data.data()), false);
        if (inverse) {
          post = coset ? scale_op::by_powers(d.t.view(d.t.coset_inv_n, d.data.data()), true)
                       : scale_op::by_constant(d.to_d(d.t.n_inv));
        }
        auto y = to_dvec(x);
        emulate(y, d, tile_log, inverse, false, pre, post, log_n % 2 == 1);
        auto got = to_hvec(y);
        ref_bit_reverse(got);
        auto want = x;
        ref_ntt(want, inverse ? cuzk::gpu::ntt_dir::inverse : cuzk::gpu::ntt_dir::forward, coset);
        ASSERT_EQ(first_diff(got, want), -1)
            << "2^" << log_n << " tile 2^" << tile_log << " inverse " << inverse << " coset " << coset;
      }
    }
  }
}

// compute_h's first half: inverse DIF with g^i/n fused at store, then forward
// DIT on the bit-reversed coefficients gives the values on g·H in natural order.
TEST(gpu_ntt_emulated, evals_to_coset_matches_reference) {
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt_emulated.coset"));
  for (auto [log_n, tile_log] : cases) {
    const host_domain d(log_n);
    const auto x = random_vec(rng, size_t(1) << log_n);
    auto y = to_dvec(x);
    emulate(y, d, tile_log, true, false, {}, scale_op::by_powers(d.t.view(d.t.coset_n, d.data.data()), true),
            false);
    emulate(y, d, tile_log, false, true, {}, {}, true);
    auto want = x;
    ref_ntt(want, cuzk::gpu::ntt_dir::inverse, false);
    ref_ntt(want, cuzk::gpu::ntt_dir::forward, true);
    ASSERT_EQ(first_diff(to_hvec(y), want), -1) << "2^" << log_n << " tile 2^" << tile_log;
  }
}

// compute_h_d's sequence in six transforms: a and b to g·H, their product
// back with g^-i/n at store (R), c back with 1/n at store (C), then
// (R - C)·z_inv and one bit reversal, against bellman's coset quotient (the
// reference's seven transforms) on random, unsatisfied a, b, c.
TEST(gpu_ntt_emulated, compute_h_in_six_transforms_matches_coset_quotient) {
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt_emulated.compute_h"));
  for (auto [log_n, tile_log] : cases) {
    const host_domain d(log_n);
    const size_t n = size_t(1) << log_n;
    const auto a = random_vec(rng, n), b = random_vec(rng, n), c = random_vec(rng, n);
    auto x = to_dvec(a), y = to_dvec(b), z = to_dvec(c);
    for (auto* v : {&x, &y}) {
      emulate(*v, d, tile_log, true, false, {}, scale_op::by_powers(d.t.view(d.t.coset_n, d.data.data()), true),
              false);
      emulate(*v, d, tile_log, false, true, {}, {}, true);
    }
    for (size_t i = 0; i < n; ++i) x[i] = x[i] * y[i];
    emulate(x, d, tile_log, true, false, {}, scale_op::by_powers(d.t.view(d.t.coset_inv_n, d.data.data()), true),
            true);
    emulate(z, d, tile_log, true, false, {}, scale_op::by_constant(d.to_d(d.t.n_inv)), true);
    const fr_d z_inv = d.to_d(d.t.z_inv);
    for (size_t i = 0; i < n; ++i) x[i] = (x[i] - z[i]) * z_inv;
    auto got = to_hvec(x);
    ref_bit_reverse(got);
    ASSERT_EQ(first_diff(got, ref_compute_h(a, b, c)), -1) << "2^" << log_n << " tile 2^" << tile_log;
  }
}

TEST(gpu_ntt_emulated, pass_shapes_cover_every_bit_once) {
  for (uint32_t tile_log : {11u, 12u}) {
    for (uint32_t log_n = 1; log_n <= ntt_max_log_n; ++log_n) {
      uint32_t next = log_n;
      for (const auto& p : ntt_pass_shape::plan(log_n, tile_log)) {
        EXPECT_EQ(p.lo + p.k, next) << log_n;
        EXPECT_LE(p.k + p.c, tile_log);
        EXPECT_LE(p.c, p.lo);
        EXPECT_TRUE(p.lo == 0 || p.c >= 2) << "runs of at least 4 elements";
        next = p.lo;
      }
      EXPECT_EQ(next, 0u);
    }
  }
}

}  // namespace
