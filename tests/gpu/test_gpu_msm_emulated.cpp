// The GPU MSM's index logic and device arithmetic run on the host (no GPU
// needed, so CI checks them): window count and signed recoding against
// msm::signed_digits_t; the whole sort/chunk/fix-up/bucket-reduction
// pipeline of msm_algo.cuh over an integer group, where the MSM must equal
// sum s_i·b_i mod 2^64 (the recoding is exact over the integers), with tiny
// chunks and skewed digits so that runs cross many chunk boundaries; and the
// device XYZZ / Fp2 formulas (and Fp with values below 2p) against
// ec::xyzz_t, ff::fp2_t and ff::fp_t, and the
// setup kernel's inversion and XYZZ -> affine against the host's; the
// affine bucket sums (msm_affine.cuh), round by round, and the affine lanes
// (msm_lanes.cuh) against per-bucket sums of the CPU's group law; and the
// binary-GCD inversion (bingcd_d.cuh) against the host field's.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "gpu/field_forms.cuh"
#include "gpu/fp2_d.cuh"
#include "gpu/fp_d.cuh"
#include "gpu/fp_lazy_d.cuh"
#include "gpu/fr_d.cuh"
#include "gpu/msm_affine.cuh"
#include "gpu/msm_algo.cuh"
#include "gpu/msm_lanes.cuh"
#include "gpu/msm_plan.hpp"
#include "gpu/xyzz_d.cuh"
#include "msm/msm.hpp"
#include "msm/signed_digits.hpp"
#include "msm_test_points.hpp"
#include "test_seed.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::gpu;
using limbs8 = std::array<uint32_t, 8>;

limbs8 split32(const msm::scalar_limbs_t& s) {
  limbs8 r{};
  for (int i = 0; i < 8; ++i) r[size_t(i)] = uint32_t(s[size_t(i / 2)] >> (32 * (i % 2)));
  return r;
}

msm::scalar_limbs_t r_minus_1() {
  auto r = ff::fr_t::modulus;
  r[0] -= 1;
  return r;
}

TEST(gpu_msm_emulated, window_count_matches_cpu_recoding) {
  for (uint32_t c = msm::signed_digits_t::min_bits; c <= msm::signed_digits_t::max_bits; ++c)
    EXPECT_EQ(msm_plan::windows_for(c), msm::signed_digits_t(c).windows()) << "c=" << c;
}

TEST(gpu_msm_emulated, plan_rejects_bad_window_bits_and_splits_work) {
  EXPECT_THROW(msm_plan::make(100, 1), std::invalid_argument);
  EXPECT_THROW(msm_plan::make(100, msm_plan::max_bits + 1), std::invalid_argument);
  for (size_t m : {size_t(1), size_t(1000), size_t(1) << 20, size_t(1) << 26}) {
    const msm_plan p = msm_plan::make(m);
    EXPECT_EQ(p.buckets % p.segment, 0u) << "m=" << m;
    EXPECT_GE(p.chunks(m) * p.chunk, p.batch_entries(m)) << "m=" << m;
    EXPECT_LT(p.batches() * p.batch_windows - p.windows, p.batch_windows) << "m=" << m;
    EXPECT_LE(p.c, 20u) << "m=" << m;
    if (m <= (size_t(1) << 24)) {
      EXPECT_EQ(p.batch_windows, p.windows) << "m=" << m << ": one batch up to 2^24";
    }
    EXPECT_LE(p.batch_entries(m), std::max(msm_plan::default_batch_entries, m)) << "m=" << m;
  }
  // A 2^27-point MSM at c = 20 (13 windows) holds 2 windows' entries at once under the default bound.
  const msm_plan big = msm_plan::make(size_t(1) << 27, 20);
  EXPECT_EQ(big.batch_windows, 2u);
  EXPECT_EQ(big.batches(), 7u);
  EXPECT_EQ(big.batch_size(6), 1u);
  EXPECT_LE(big.batch_entries(size_t(1) << 27), msm_plan::default_batch_entries);
  // The cost model, against the widths measured fastest on an H200: G1 2^22 c = 16, 2^24 and 2^26 c = 20,
  // G2 2^18 c = 13. From 2^12 points on (below, runs are short) no chosen width leaves the top
  // window with fewer than 5 bits of the scalar.
  EXPECT_EQ(msm_plan::make(size_t(1) << 22).c, 16u);
  EXPECT_EQ(msm_plan::make(size_t(1) << 24).c, 20u);
  EXPECT_EQ(msm_plan::make(size_t(1) << 26).c, 20u);
  EXPECT_EQ(msm_plan::make(size_t(1) << 18).c, 13u);
  EXPECT_EQ(msm_plan::top_window_bits(17), 0);   // 16 windows of 17 bits: the last one is all carry
  EXPECT_EQ(msm_plan::top_window_bits(16), 15);  // bits 240..254
  for (int lg = 12; lg <= 27; ++lg) EXPECT_GE(msm_plan::top_window_bits(msm_plan::make(size_t(1) << lg).c), 5) << lg;
}

TEST(gpu_msm_emulated, signed_windows_match_cpu_digits) {
  std::mt19937_64 rng(cuzk::test::seed("gpu_msm_emulated.digits"));
  std::vector<msm::scalar_limbs_t> scalars = {{0, 0, 0, 0}, {1, 0, 0, 0}, r_minus_1()};
  for (int i = 0; i < 200; ++i) scalars.push_back(ff::fr_t::random(rng).to_canonical());
  for (uint32_t c : {2u, 3u, 5u, 8u, 11u, 13u, 16u, 17u, 20u}) {
    const msm::signed_digits_t cpu(c);
    for (const auto& s : scalars) {
      const limbs8 l = split32(s);
      msm_algo::signed_windows(l.data(), c, cpu.windows(), [&](uint32_t w, uint32_t mag, bool neg) {
        const int d = neg ? -int(mag) : int(mag);
        ASSERT_EQ(d, cpu.digit(s, w)) << "c=" << c << " w=" << w;
      });
    }
  }
}

// Integers mod 2^64 as the group: a base is a number, its negation the negative.
struct int_point {
  uint64_t v = 0;
  bool inf_flag = true;  // exercises the infinity paths like a real point
  static int_point inf() { return {}; }
  bool is_inf() const { return inf_flag; }
  void add(const int_point& q) {
    if (q.inf_flag) return;
    v += q.v;
    inf_flag = false;
  }
  int_point dbl() const { return {v * 2, inf_flag}; }
};
struct int_group {
  const std::vector<uint64_t>* bases;
  void add_entry(int_point& acc, uint32_t val) const {
    const uint64_t b = (*bases)[val >> 1];
    acc.add({(val & 1) ? uint64_t(0) - b : b, false});
  }
};

// The device pipeline of msm_impl.cuh, step by step, over point type P and
// group G (g.add_entry(acc, val) adds base val >> 1, negated when val & 1):
// each window's sum, lowest first. overlapped: as sum_windows runs
// the windows (each sorted into its slot of plan.sorted_slots(), then summed
// as its own launch of msm_plan::window_chunk entries per thread, about
// `threads` threads); otherwise each batch's sorted windows in one launch.
template <class P, class G>
std::vector<P> emulated_window_sums(G g, const std::vector<limbs8>& scalars, const msm_plan& p,
                                    bool overlapped = false, size_t threads = 0, size_t chunk_forced = 0) {
  const size_t m = scalars.size();
  std::vector<P> buckets(size_t(p.windows) * p.buckets, P::inf());
  for (uint32_t b = 0; b < p.batches(); ++b) {  // batches of whole windows, as the driver runs them
    const uint32_t first = p.batch_first(b), count = p.batch_size(b);
    const size_t total = size_t(count) * m;
    std::vector<uint32_t> keys(total), vals(total);
    for (size_t j = 0; j < m; ++j)
      msm_algo::signed_windows(scalars[j].data(), p.c, first + count, [&](uint32_t w, uint32_t mag, bool neg) {
        if (w < first) return;
        keys[(w - first) * m + j] = (w << p.c) | mag;
        vals[(w - first) * m + j] = uint32_t(j << 1) | uint32_t(neg);
      });
    std::vector<size_t> order(total);
    for (uint32_t w = 0; w < count; ++w) {  // stable per-window sort by key, as CUB's radix sort
      std::iota(order.begin() + w * m, order.begin() + (w + 1) * m, w * m);
      std::stable_sort(order.begin() + w * m, order.begin() + (w + 1) * m,
                       [&](size_t x, size_t y) { return keys[x] < keys[y]; });
    }
    if (overlapped) {
      std::vector<uint32_t> sk(size_t(p.sorted_slots()) * m, ~0u), sv(sk.size(), ~0u);
      const size_t L = msm_plan::window_chunk(m, threads, chunk_forced), chunks = (m + L - 1) / L;
      for (uint32_t j = 0; j < count; ++j) {
        const size_t in = size_t(j) * m, out = size_t(p.slot_of(first + j)) * m;
        for (size_t i = 0; i < m; ++i) sk[out + i] = keys[order[in + i]], sv[out + i] = vals[order[in + i]];
        std::vector<P> head(chunks, P::inf()), tail(chunks, P::inf());
        std::vector<uint8_t> open(chunks, 7);
        for (size_t t = 0; t < chunks; ++t)
          msm_algo::accumulate_chunk(g, sk.data() + out, sv.data() + out, m, L, t, p.c, p.buckets, buckets.data(),
                                     head.data(), tail.data(), open.data());
        for (size_t t = 0; t < chunks; ++t)
          msm_algo::fixup_chunk(sk.data() + out, m, L, t, p.c, p.buckets, buckets.data(), head.data(), tail.data(),
                                open.data());
      }
      continue;
    }
    std::vector<uint32_t> sk(total), sv(total);
    for (size_t i = 0; i < total; ++i) sk[i] = keys[order[i]], sv[i] = vals[order[i]];

    const size_t chunks = p.chunks_of(total);
    std::vector<P> head(chunks, P::inf()), tail(chunks, P::inf());
    std::vector<uint8_t> open(chunks);
    for (size_t t = 0; t < chunks; ++t)
      msm_algo::accumulate_chunk(g, sk.data(), sv.data(), total, p.chunk, t, p.c, p.buckets, buckets.data(),
                                 head.data(), tail.data(), open.data());
    for (size_t t = 0; t < chunks; ++t)
      msm_algo::fixup_chunk(sk.data(), total, p.chunk, t, p.c, p.buckets, buckets.data(), head.data(), tail.data(),
                            open.data());
  }
  const size_t segs = size_t(p.windows) * p.segments();
  std::vector<P> run(segs, P::inf()), acc(segs, P::inf());
  for (size_t t = 0; t < segs; ++t) {
    const size_t w = t / p.segments();
    const uint32_t j = uint32_t(t % p.segments());
    P* b = buckets.data() + w * p.buckets;
    msm_algo::bucket_running_sums(b, j * p.segment, (j + 1) * p.segment);
    run[t] = b[j * p.segment];
    acc[t] = msm_algo::range_sum(b, size_t(j) * p.segment, size_t(j + 1) * p.segment);
    acc[t] = msm_algo::segment_finish(run[t], acc[t], j * p.segment);
  }
  std::vector<P> sums(p.windows, P::inf());
  for (uint32_t w = 0; w < p.windows; ++w) sums[w] = msm_algo::range_sum(acc.data(), w * p.segments(), (w + 1) * p.segments());
  return sums;
}

uint64_t emulated_msm(const std::vector<uint64_t>& bases, const std::vector<limbs8>& scalars, const msm_plan& p,
                      bool overlapped = false, size_t threads = 0, size_t chunk_forced = 0) {
  const auto sums = emulated_window_sums<int_point>(int_group{&bases}, scalars, p, overlapped, threads, chunk_forced);
  uint64_t result = 0;
  for (uint32_t w = p.windows; w-- > 0;) result = (result << p.c) + sums[w].v;  // shifts by <= 22 bits: fine mod 2^64
  return result;
}

TEST(gpu_msm_emulated, pipeline_matches_integer_sum) {
  std::mt19937_64 rng(cuzk::test::seed("gpu_msm_emulated.pipeline"));
  auto rand_scalar = [&] { return split32(ff::fr_t::random(rng).to_canonical()); };
  for (int round = 0; round < 24; ++round) {
    const size_t m = 1 + rng() % 300;
    std::vector<uint64_t> bases(m);
    for (auto& b : bases) b = rng();
    std::vector<limbs8> scalars(m);
    const int kind = round % 4;  // uniform, few distinct values, one value, small values
    const limbs8 one_value = rand_scalar();
    for (auto& s : scalars) {
      if (kind == 0) s = rand_scalar();
      else if (kind == 1) s = (rng() % 2) ? one_value : split32(r_minus_1());
      else if (kind == 2) s = one_value;
      else s = limbs8{uint32_t(rng() % 7), 0, 0, 0, 0, 0, 0, 0};
    }
    uint64_t want = 0;
    for (size_t i = 0; i < m; ++i) want += (uint64_t(scalars[i][0]) | uint64_t(scalars[i][1]) << 32) * bases[i];
    for (uint32_t c : {0u, 2u, 4u, 7u, 13u}) {
      for (size_t chunk : {size_t(1), size_t(2), size_t(3), size_t(17), size_t(0)}) {
        // Batches of one window, of three, and all windows at once.
        for (size_t batch : {size_t(1), 3 * m, msm_plan::default_batch_entries}) {
          const msm_plan p = msm_plan::make(m, c, chunk, 64, batch);
          ASSERT_EQ(emulated_msm(bases, scalars, p), want)
              << "m=" << m << " kind=" << kind << " c=" << p.c << " chunk=" << p.chunk << " segment=" << p.segment
              << " batch windows=" << p.batch_windows;
          // Windows one launch each, sorted into slots reused from the third window on (msm_sort::overlapped).
          for (size_t threads : {size_t(5), size_t(64)}) {
            ASSERT_EQ(emulated_msm(bases, scalars, p, true, threads, chunk), want)
                << "overlapped: m=" << m << " kind=" << kind << " c=" << p.c << " threads=" << threads
                << " chunk=" << chunk << " slots=" << p.sorted_slots() << " batch windows=" << p.batch_windows;
          }
        }
      }
    }
  }
}

template <class D, class H>
D to_d(const H& h) {
  static_assert(sizeof(D) == sizeof(H));
  D d;
  std::memcpy(static_cast<void*>(&d), &h, sizeof d);
  return d;
}
template <class H, class D>
H to_h(const D& d) {
  static_assert(sizeof(D) == sizeof(H));
  H h;
  std::memcpy(static_cast<void*>(&h), &d, sizeof h);
  return h;
}

// Curve points as the group: the device's XYZZ accumulator over field type F
// and its affine bases, as msm_kernels.cuh's accumulate kernel adds them.
template <class F>
struct point_group {
  const std::vector<affine_d<F>>* bases;
  void add_entry(xyzz_d<F>& acc, uint32_t val) const { acc.add_mixed((*bases)[val >> 1], (val & 1) != 0); }
};

// The whole device pipeline over real points in field form F (fp_d and
// fp_lazy_d for G1, the Fp2 forms for G2) against the CPU MSM: the windows
// combined as the driver does (c doublings each), then canonical() at the
// host boundary. Scalars include 0, 1 and r - 1; chunks of 1 and 5 entries
// make runs cross chunks.
template <class C, class F>
void check_pipeline_over_points(size_t m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto pts = cuzk::gpu::test::random_points<C>(m, rng);
  auto frs = cuzk::gpu::test::random_frs(m, rng);
  frs[0] = ff::fr_t::zero();
  frs[1] = ff::fr_t::one();
  frs[2] = -ff::fr_t::one();
  frs[3] = frs[4];  // a repeated scalar: two bases in every bucket of its digits
  const auto want = msm::msm<C>(std::span<const ec::affine_t<C>>(pts), std::span<const ff::fr_t>(frs));
  std::vector<affine_d<F>> bases(m);
  std::vector<limbs8> scalars(m);
  for (size_t i = 0; i < m; ++i) {
    bases[i] = to_d<affine_d<F>>(pts[i]);
    scalars[i] = split32(frs[i].to_canonical());
  }
  for (uint32_t c : {0u, 5u}) {
    for (size_t chunk : {size_t(1), size_t(5)}) {
      const msm_plan p = msm_plan::make(m, c, chunk, 16, msm_plan::default_batch_entries);
      for (bool overlapped : {false, true}) {
        const auto sums = emulated_window_sums<xyzz_d<F>>(point_group<F>{&bases}, scalars, p, overlapped, 16, chunk);
        xyzz_d<F> acc = xyzz_d<F>::inf();
        for (uint32_t w = p.windows; w-- > 0;) {
          for (uint32_t k = 0; k < p.c; ++k) acc = acc.dbl();
          acc.add(sums[w]);
        }
        ASSERT_EQ(to_h<ec::xyzz_t<C>>(canonical(acc)).to_jacobian(), want)
            << "m=" << m << " c=" << p.c << " chunk=" << p.chunk << " overlapped " << overlapped << " seed " << seed;
      }
    }
  }
}

TEST(gpu_msm_emulated, pipeline_over_points_in_every_field_form) {
  check_pipeline_over_points<ec::g1_curve, fp_d>(40, cuzk::test::seed("gpu pipeline g1"));
  check_pipeline_over_points<ec::g1_curve, fp_lazy_d>(40, cuzk::test::seed("gpu pipeline g1 below 2p"));
  check_pipeline_over_points<ec::g1_curve, fp_lazy_unfused_d>(40, cuzk::test::seed("gpu pipeline g1 below 2p unfused"));
  check_pipeline_over_points<ec::g2_curve, fp2_d>(12, cuzk::test::seed("gpu pipeline g2"));
  check_pipeline_over_points<ec::g2_curve, fp2_lazy_d>(12, cuzk::test::seed("gpu pipeline g2 two reductions"));
  check_pipeline_over_points<ec::g2_curve, fp2_lazy_fused_d>(12, cuzk::test::seed("gpu pipeline g2 fused"));
  check_pipeline_over_points<ec::g2_curve, fp2_below_2p_d>(12, cuzk::test::seed("gpu pipeline g2 below 2p"));
  check_pipeline_over_points<ec::g2_curve, fp2_lazy_below_2p_d>(12, cuzk::test::seed("gpu pipeline g2 both"));
}

template <class C, class F>
void check_xyzz_formulas(uint64_t seed) {
  std::mt19937_64 rng(seed);
  using HX = ec::xyzz_t<C>;
  auto pts = cuzk::gpu::test::random_points<C>(9, rng);
  pts.push_back(ec::affine_t<C>::infinity());
  pts.push_back(pts[0]);   // doubling through the mixed addition
  pts.push_back(-pts[1]);  // cancellation
  HX h = HX::infinity();
  xyzz_d<F> d = xyzz_d<F>::inf();
  for (size_t i = 0; i < pts.size(); ++i) {
    const bool neg = i % 3 == 1;
    h.add_mixed(neg ? -pts[i] : pts[i]);
    d.add_mixed(to_d<affine_d<F>>(pts[i]), neg);
    ASSERT_EQ(to_h<HX>(canonical(d)).to_jacobian(), h.to_jacobian()) << "mixed step " << i;
    HX h2 = h;
    h2.add(h);
    xyzz_d<F> d2 = d;
    d2.add(d);
    ASSERT_EQ(to_h<HX>(canonical(d2)).to_jacobian(), h2.to_jacobian()) << "full add (doubling) step " << i;
    ASSERT_EQ(to_h<HX>(canonical(d.dbl())).to_jacobian(), h.dbl().to_jacobian()) << "dbl step " << i;
    HX h3 = h2;
    h3.add(h);
    xyzz_d<F> d3 = d2;
    d3.add(d);
    ASSERT_EQ(to_h<HX>(canonical(d3)).to_jacobian(), h3.to_jacobian()) << "full add step " << i;
  }
}

TEST(gpu_msm_emulated, xyzz_g1_matches_host) { check_xyzz_formulas<ec::g1_curve, fp_d>(cuzk::test::seed("gpu xyzz g1")); }
TEST(gpu_msm_emulated, xyzz_g2_matches_host) { check_xyzz_formulas<ec::g2_curve, fp2_d>(cuzk::test::seed("gpu xyzz g2")); }
TEST(gpu_msm_emulated, xyzz_g2_with_the_two_reduction_product_matches_host) {
  check_xyzz_formulas<ec::g2_curve, fp2_lazy_d>(cuzk::test::seed("gpu xyzz g2 lazy"));
  check_xyzz_formulas<ec::g2_curve, fp2_lazy_fused_d>(cuzk::test::seed("gpu xyzz g2 lazy fused"));
}

TEST(gpu_msm_emulated, xyzz_g1_over_fp_below_2p_matches_host) {
  check_xyzz_formulas<ec::g1_curve, fp_lazy_d>(cuzk::test::seed("gpu xyzz g1 lazy"));
  check_xyzz_formulas<ec::g1_curve, fp_lazy_unfused_d>(cuzk::test::seed("gpu xyzz g1 lazy unfused"));
}

// x + p over 12 limbs: the other representative of x below 2p.
fp_lazy_d plus_p(const ff::fp_t& x) {
  const auto p = fp_d::split(ff::fp_params::modulus);
  fp_lazy_d r = to_d<fp_lazy_d>(x);
  uint64_t carry = 0;
  for (int i = 0; i < fp_d::n; ++i) {
    const uint64_t t = uint64_t(r.v.l[i]) + p.v[i] + carry;
    r.v.l[i] = uint32_t(t);
    carry = t >> 32;
  }
  return r;
}

// Whether raw limbs are below 2p (fp_lazy_d's invariant).
bool below_2p(const fp_lazy_d& x) {
  const auto p2 = fp_lazy_d::twice_modulus();
  for (int i = fp_d::n - 1; i >= 0; --i) {
    if (x.v.l[i] != p2.v[i]) return x.v.l[i] < p2.v[i];
  }
  return false;
}

// fp_lazy_d against the host field: every operation on both representatives
// of each operand (x and x + p), including 0, 1, p - 1 and values whose
// representative is 2p - 1, gives the host's value, below 2p; equality and
// zero tests are congruence tests; canonical() gives the host's bytes.
TEST(gpu_msm_emulated, fp_below_2p_matches_host) {
  const uint64_t seed = cuzk::test::seed("gpu fp lazy");
  std::mt19937_64 rng(seed);
  std::vector<ff::fp_t> xs = {ff::fp_t::zero(), ff::fp_t::one(), -ff::fp_t::one(), ff::fp_t::one().dbl()};
  for (int i = 0; i < 24; ++i) xs.push_back(ff::fp_t::random(rng));
  auto reps = [](const ff::fp_t& x) { return std::array<fp_lazy_d, 2>{to_d<fp_lazy_d>(x), plus_p(x)}; };
  auto host = [](const fp_lazy_d& x) {
    EXPECT_TRUE(below_2p(x));
    return to_h<ff::fp_t>(x.canonical());
  };
  for (const auto& a : xs) {
    for (const auto& da : reps(a)) {
      ASSERT_EQ(host(da), a) << "seed " << seed;
      EXPECT_EQ(da.is_zero(), a.is_zero()) << "seed " << seed;
      EXPECT_EQ(host(da.sqr()), a.sqr()) << "seed " << seed;
      EXPECT_EQ(host(da.dbl()), a.dbl()) << "seed " << seed;
      EXPECT_EQ(host(-da), -a) << "seed " << seed;
      for (const auto& b : xs) {
        for (const auto& db : reps(b)) {
          ASSERT_EQ(host(da * db), a * b) << "seed " << seed;
          ASSERT_EQ(host(da + db), a + b) << "seed " << seed;
          ASSERT_EQ(host(da - db), a - b) << "seed " << seed;
          ASSERT_EQ(da == db, a == b) << "seed " << seed;
        }
      }
    }
  }
  // The largest operands: 2p - 1 (the representative of p - 1) squared and times itself.
  const fp_lazy_d top = plus_p(-ff::fp_t::one());
  EXPECT_EQ(host(top * top), ff::fp_t::one());
  EXPECT_EQ(host(top.sqr()), ff::fp_t::one());
  EXPECT_EQ(host(top + top), -ff::fp_t::one().dbl());
  for (int i = 0; i < 4; ++i) {
    const ff::fp_t a = ff::fp_t::random(rng);
    EXPECT_EQ(host(plus_p(a).inverse()), a.inverse()) << "seed " << seed;
  }
  EXPECT_TRUE(plus_p(ff::fp_t::zero()).inverse().is_zero());
}

// a·b - c·d in one Montgomery reduction (fp_lazy_d::mul_sub_mul, over
// mont_d::mul2_cios) against the host field: every operand in both
// representatives, with 0 and p (c = 0 makes c's negation 2p, the bound),
// 1, p - 1 and 2p - 1 among them; results below 2p. mul2_cios over fp_d
// (values below p, full reduction) gives a·b + c·d fully reduced.
TEST(gpu_msm_emulated, fp_mul_sub_mul_matches_host) {
  const uint64_t seed = cuzk::test::seed("gpu fp mul_sub_mul");
  std::mt19937_64 rng(seed);
  std::vector<ff::fp_t> xs = {ff::fp_t::zero(), ff::fp_t::one(), -ff::fp_t::one()};
  for (int i = 0; i < 9; ++i) xs.push_back(ff::fp_t::random(rng));
  std::vector<std::pair<ff::fp_t, fp_lazy_d>> ops;
  for (const auto& x : xs) {
    ops.emplace_back(x, to_d<fp_lazy_d>(x));
    ops.emplace_back(x, plus_p(x));
  }
  const size_t k = ops.size();
  size_t checked = 0;
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j < k; ++j) {
      // c and d walk the operands at other strides, so each pair meets
      // several (c, d), the extremes among them.
      for (size_t s = 0; s < 5; ++s) {
        const auto& [a, da] = ops[i];
        const auto& [b, db] = ops[j];
        const auto& [c, dc] = ops[(i * 7 + j * 3 + s * 5) % k];
        const auto& [d, dd] = ops[(i + j * 11 + s * 13) % k];
        const fp_lazy_d r = fp_lazy_d::mul_sub_mul(da, db, dc, dd);
        ASSERT_TRUE(below_2p(r)) << i << " " << j << " " << s << " seed " << seed;
        ASSERT_EQ(to_h<ff::fp_t>(r.canonical()), a * b - c * d) << i << " " << j << " " << s << " seed " << seed;
        const fp_d f = fp_d::mul2_cios(to_d<fp_d>(a), to_d<fp_d>(b), to_d<fp_d>(c), to_d<fp_d>(d));
        ASSERT_EQ(to_h<ff::fp_t>(f), a * b + c * d) << i << " " << j << " " << s << " seed " << seed;
        ++checked;
      }
    }
  }
  // The largest operands everywhere: 2p - 1 (p - 1's other representative), and c = 0.
  const fp_lazy_d top = plus_p(-ff::fp_t::one()), zero = to_d<fp_lazy_d>(ff::fp_t::zero());
  EXPECT_EQ(to_h<ff::fp_t>(fp_lazy_d::mul_sub_mul(top, top, top, top).canonical()), ff::fp_t::zero());
  EXPECT_TRUE(below_2p(fp_lazy_d::mul_sub_mul(top, top, zero, top)));
  EXPECT_EQ(to_h<ff::fp_t>(fp_lazy_d::mul_sub_mul(top, top, zero, top).canonical()), ff::fp_t::one());
  EXPECT_EQ(checked, k * k * 5);
}

template <class F>
constexpr bool has_mul_sub_mul = requires(F a) { F::mul_sub_mul(a, a, a, a); };

// The run-time form names (msm_timer, the probes) reach the types their
// comments name, and a form that does not exist is refused.
TEST(gpu_msm_emulated, field_form_names_pick_their_types) {
  const auto fp_type = [](fp_form form) {
    return with_fp_form(form, []<class F>(form_tag<F>) {
      return std::is_same_v<F, fp_d> ? 0 : std::is_same_v<F, fp_lazy_unfused_d> ? 1 : std::is_same_v<F, fp_lazy_d> ? 2 : -1;
    });
  };
  EXPECT_EQ(fp_type(fp_form::below_p), 0);
  EXPECT_EQ(fp_type(fp_form::below_2p), 1);
  EXPECT_EQ(fp_type(fp_form::below_2p_fused), 2);
  EXPECT_THROW(fp_type(fp_form(7)), std::invalid_argument);
  // The G1 MSM's form has the fused difference, the unfused one does not.
  static_assert(has_mul_sub_mul<fp_lazy_d> && !has_mul_sub_mul<fp_lazy_unfused_d>);

  const auto fp2_type = [](fp2_product product, bool below_2p) {
    return with_fp2_form(product, below_2p, []<class F2>(form_tag<F2>) {
      if constexpr (std::is_same_v<F2, fp2_d>) return 0;
      else if constexpr (std::is_same_v<F2, fp2_below_2p_d>) return 1;
      else if constexpr (std::is_same_v<F2, fp2_lazy_d>) return 2;
      else if constexpr (std::is_same_v<F2, fp2_lazy_below_2p_d>) return 3;
      else if constexpr (std::is_same_v<F2, fp2_lazy_fused_d>) return 4;
      else return -1;
    });
  };
  EXPECT_EQ(fp2_type(fp2_product::three_reductions, false), 0);
  EXPECT_EQ(fp2_type(fp2_product::three_reductions, true), 1);
  EXPECT_EQ(fp2_type(fp2_product::two_reductions, false), 2);
  EXPECT_EQ(fp2_type(fp2_product::two_reductions, true), 3);
  EXPECT_EQ(fp2_type(fp2_product::two_reductions_fused, false), 4);
  EXPECT_THROW(fp2_type(fp2_product::two_reductions_fused, true), std::invalid_argument);
  EXPECT_THROW(fp2_type(fp2_product(9), false), std::invalid_argument);
}

TEST(gpu_msm_emulated, xyzz_g2_over_fp_below_2p_matches_host) {
  check_xyzz_formulas<ec::g2_curve, fp2_below_2p_d>(cuzk::test::seed("gpu xyzz g2 below 2p"));
  check_xyzz_formulas<ec::g2_curve, fp2_lazy_below_2p_d>(cuzk::test::seed("gpu xyzz g2 lazy below 2p"));
}

// The Fp2 forms over fp_lazy_d (three reductions and two) against the host
// type: each coordinate in both representatives (x and x + p), with 0, 1 and
// p - 1 among them (so 2p - 1, the largest operand, occurs); results below 2p,
// congruent, and canonical() gives the host's bytes.
template <class F2>
void check_fp2_below_2p(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ff::fp2_t> xs;
  const ff::fp_t top = -ff::fp_t::one(), zero = ff::fp_t::zero(), one = ff::fp_t::one();
  for (const auto& c0 : {zero, one, top}) {
    for (const auto& c1 : {zero, one, top}) xs.push_back(ff::fp2_t{c0, c1});
  }
  for (int i = 0; i < 12; ++i) xs.push_back(ff::fp2_t::random(rng));
  auto reps = [](const ff::fp2_t& x) {
    return std::array<F2, 4>{F2{to_d<fp_lazy_d>(x.c0), to_d<fp_lazy_d>(x.c1)}, F2{plus_p(x.c0), to_d<fp_lazy_d>(x.c1)},
                             F2{to_d<fp_lazy_d>(x.c0), plus_p(x.c1)}, F2{plus_p(x.c0), plus_p(x.c1)}};
  };
  auto host = [](const F2& x) {
    EXPECT_TRUE(below_2p(x.c0) && below_2p(x.c1));
    return to_h<ff::fp2_t>(x.canonical());
  };
  for (const auto& a : xs) {
    for (const auto& da : reps(a)) {
      ASSERT_EQ(host(da), a) << "seed " << seed;
      EXPECT_EQ(host(da.sqr()), a.sqr()) << "seed " << seed;
      EXPECT_EQ(host(-da), -a) << "seed " << seed;
      EXPECT_EQ(da.is_zero(), a.is_zero()) << "seed " << seed;
      for (const auto& b : xs) {
        for (const auto& db : reps(b)) {
          ASSERT_EQ(host(da * db), a * b) << "seed " << seed;
          ASSERT_EQ(host(da - db), a - b) << "seed " << seed;
          ASSERT_EQ(da == db, a == b) << "seed " << seed;
        }
      }
    }
  }
  const ff::fp2_t b = ff::fp2_t::random(rng);
  EXPECT_EQ(host(reps(b)[3].inverse()), b.inverse()) << "seed " << seed;
}

TEST(gpu_msm_emulated, fp2_over_fp_below_2p_matches_host) {
  check_fp2_below_2p<fp2_below_2p_d>(cuzk::test::seed("gpu fp2 below 2p"));
  check_fp2_below_2p<fp2_lazy_below_2p_d>(cuzk::test::seed("gpu fp2 lazy below 2p"));
}

TEST(gpu_msm_emulated, fp2_matches_host) {
  std::mt19937_64 rng(cuzk::test::seed("gpu fp2"));
  for (int i = 0; i < 100; ++i) {
    const ff::fp2_t a = ff::fp2_t::random(rng), b = ff::fp2_t::random(rng);
    const fp2_d da = to_d<fp2_d>(a), db = to_d<fp2_d>(b);
    EXPECT_EQ(to_h<ff::fp2_t>(da * db), a * b);
    EXPECT_EQ(to_h<ff::fp2_t>(da.sqr()), a.sqr());
    EXPECT_EQ(to_h<ff::fp2_t>(da + db), a + b);
    EXPECT_EQ(to_h<ff::fp2_t>(da - db), a - b);
    EXPECT_EQ(to_h<ff::fp2_t>(-da), -a);
  }
}

// The product with two reductions (fp2_lazy_d, mul_lazy) against the host
// type: random operands, and the extremes of its bounds (coordinates 0, 1 and
// p - 1, where a0 + a1 is largest, A - B most negative and S - A - B largest).
TEST(gpu_msm_emulated, fp2_product_with_two_reductions_matches_host) {
  const uint64_t seed = cuzk::test::seed("gpu fp2 lazy");
  std::mt19937_64 rng(seed);
  std::vector<ff::fp2_t> xs;
  const ff::fp_t top = -ff::fp_t::one(), zero = ff::fp_t::zero(), one = ff::fp_t::one();
  for (const auto& c0 : {zero, one, top}) {
    for (const auto& c1 : {zero, one, top}) xs.push_back(ff::fp2_t{c0, c1});
  }
  for (int i = 0; i < 40; ++i) xs.push_back(ff::fp2_t::random(rng));
  for (const auto& a : xs) {
    for (const auto& b : xs) {
      const auto got = to_h<ff::fp2_t>(to_d<fp2_lazy_d>(a) * to_d<fp2_lazy_d>(b));
      ASSERT_EQ(got, a * b) << "seed " << seed;
      ASSERT_EQ(to_d<fp2_d>(got), fp2_d::mul(to_d<fp2_d>(a), to_d<fp2_d>(b))) << "seed " << seed;
      ASSERT_EQ(to_h<ff::fp2_t>(to_d<fp2_lazy_fused_d>(a) * to_d<fp2_lazy_fused_d>(b)), a * b) << "seed " << seed;
    }
  }
  // a·b - c·d in two reductions (fp2_lazy_fused_d::mul_sub_mul): c and d walk the
  // values at other strides, so the corner values (components 0, 1, p - 1)
  // meet each other; the result fully reduced (the host's bytes).
  const size_t k = xs.size();
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j < k; ++j) {
      const auto &a = xs[i], &b = xs[j], &c = xs[(i * 7 + j * 3) % k], &d = xs[(i + j * 11) % k];
      using F2 = fp2_lazy_fused_d;
      const F2 r = F2::mul_sub_mul(to_d<F2>(a), to_d<F2>(b), to_d<F2>(c), to_d<F2>(d));
      ASSERT_EQ(to_h<ff::fp2_t>(r), a * b - c * d) << i << " " << j << " seed " << seed;
    }
  }
  using F2 = fp2_lazy_fused_d;
  const F2 t2 = to_d<F2>(ff::fp2_t{top, top}), z2 = to_d<F2>(ff::fp2_t{zero, zero});
  EXPECT_EQ(to_h<ff::fp2_t>(F2::mul_sub_mul(t2, t2, t2, t2)), ff::fp2_t::zero());
  EXPECT_EQ(to_h<ff::fp2_t>(F2::mul_sub_mul(z2, z2, t2, t2)), -(ff::fp2_t{top, top} * ff::fp2_t{top, top}));
}

// The setup kernel's normalization (fixed_base.cu): Fermat inversion in Fp
// and Fp2, then XYZZ -> affine, run as host code against the host types.
TEST(gpu_msm_emulated, inversion_and_affine_match_host) {
  const uint64_t seed = cuzk::test::seed("gpu inverse");
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 8; ++i) {
    const ff::fp_t a = ff::fp_t::random(rng);
    EXPECT_EQ(to_h<ff::fp_t>(to_d<fp_d>(a).inverse()), a.inverse()) << "seed " << seed;
    const ff::fp2_t b = ff::fp2_t::random(rng);
    EXPECT_EQ(to_h<ff::fp2_t>(to_d<fp2_d>(b).inverse()), b.inverse()) << "seed " << seed;
  }
  EXPECT_EQ(fp_d::zero().inverse(), fp_d::zero());
  EXPECT_EQ(fp2_d::zero().inverse(), fp2_d::zero());
  EXPECT_EQ(to_h<ff::fp_t>(fp_d::one().inverse()), ff::fp_t::one());

  auto check = [&]<class C, class F>(std::type_identity<C>, std::type_identity<F>) {
    using HX = ec::xyzz_t<C>;
    auto pts = cuzk::gpu::test::random_points<C>(4, rng);
    HX h = HX::infinity();
    xyzz_d<F> d = xyzz_d<F>::inf();
    // Infinity first, then sums with ZZ != 1.
    EXPECT_TRUE(d.to_affine().is_inf());
    for (const auto& p : pts) {
      h.add_mixed(p);
      d.add_mixed(to_d<affine_d<F>>(p), false);
      const auto want = h.to_jacobian().to_affine();
      ASSERT_EQ(to_h<ec::affine_t<C>>(d.to_affine()), want) << "seed " << seed;
    }
  };
  check(std::type_identity<ec::g1_curve>{}, std::type_identity<fp_d>{});
  check(std::type_identity<ec::g2_curve>{}, std::type_identity<fp2_d>{});
}

// x <- 1/x as msm_detail::invert_in_place does it, with the Fermat threshold
// a parameter so that small inputs go through the batched levels.
template <class F>
void host_invert(std::vector<F>& x, size_t single_below) {
  if (x.size() <= single_below) {
    for (auto& v : x) v = v.inverse();
    return;
  }
  const size_t T = msm_affine::group_threads(x.size());
  std::vector<F> prefix(x.size()), prod(T);
  for (size_t t = 0; t < T; ++t) msm_affine::batch_forward(x.data(), x.size(), t, prefix.data(), prod.data());
  host_invert(prod, single_below);
  for (size_t t = 0; t < T; ++t) msm_affine::batch_backward(x.data(), x.size(), t, prefix.data(), prod.data());
}

// msm_detail::affine_sums on the host: the same per-item functions, with the
// scans written out. Returns the number of rounds.
template <class F>
size_t host_affine_sums(const std::vector<affine_d<F>>& bases, const std::vector<uint32_t>& keys,
                        const std::vector<uint32_t>& vals, size_t slice, uint32_t c, size_t single_below,
                        std::vector<xyzz_d<F>>& bucket_out) {
  const uint32_t buckets = uint32_t(1) << (c - 1);
  size_t rounds = 0;
  for (size_t s0 = 0; s0 < keys.size(); s0 += slice) {
    msm_affine::items_t<F> it;
    it.key = keys.data() + s0;
    it.n = std::min(slice, keys.size() - s0);
    it.bases = bases.data();
    it.vals = vals.data() + s0;
    std::vector<uint32_t> next_key[2];
    std::vector<affine_d<F>> pts[2];
    for (int side = 0; it.n > 0; side ^= 1) {
      const size_t n = it.n;
      std::vector<uint32_t> starts(n), pos(n);
      for (size_t j = 0; j < n; ++j) starts[j] = msm_affine::head_index(it.key, j);
      for (size_t j = 0; j < n; ++j) pos[j] = std::max(j ? pos[j - 1] : 0u, starts[j]);
      for (size_t j = 0; j < n; ++j) starts[j] = msm_affine::flag_item(it, pos.data(), j, c, buckets, bucket_out.data());
      std::partial_sum(starts.begin(), starts.end(), pos.begin());
      const size_t m = pos[n - 1];
      if (m == 0) break;
      std::vector<uint32_t> lead(m);
      next_key[side].assign(m, 0);
      pts[side].assign(m, affine_d<F>{F::zero(), F::zero()});
      for (size_t j = 0; j < n; ++j) msm_affine::scatter_leader(it.key, pos.data(), j, lead.data(), next_key[side].data());
      const size_t T = msm_affine::group_threads(m);
      std::vector<F> prefix(m), prod(T);
      for (size_t t = 0; t < T; ++t) msm_affine::forward_pairs(it, lead.data(), m, t, prefix.data(), prod.data());
      host_invert(prod, single_below);
      for (size_t t = 0; t < T; ++t)
        msm_affine::backward_pairs(it, lead.data(), m, t, prefix.data(), prod.data(), pts[side].data());
      it.key = next_key[side].data();
      it.pts = pts[side].data();
      it.vals = nullptr;
      it.n = m;
      ++rounds;
    }
  }
  return rounds;
}

TEST(gpu_msm_emulated, batched_inversion_matches_host) {
  const uint64_t seed = cuzk::test::seed("gpu_msm_emulated.batched inversion");
  std::mt19937_64 rng(seed);
  for (size_t m : {size_t(1), size_t(15), size_t(16), size_t(17), size_t(300), size_t(5000)}) {
    std::vector<ff::fp_t> h(m);
    std::vector<fp_d> d(m);
    for (size_t i = 0; i < m; ++i) {
      do h[i] = ff::fp_t::random(rng);
      while (h[i].is_zero());
      d[i] = to_d<fp_d>(h[i]);
    }
    for (size_t single_below : {size_t(1), size_t(20)}) {
      auto inv = d;
      host_invert(inv, single_below);
      for (size_t i = 0; i < m; ++i)
        ASSERT_EQ(to_h<ff::fp_t>(inv[i]), h[i].inverse()) << "m=" << m << " i=" << i << " seed " << seed;
    }
  }
}

// Sorted digit entries over the given bases (few, so pairs often hold the
// same base: doublings with equal signs, infinity with opposite ones), with
// digit-0 keys; odd trials skew the buckets (runs of hundreds, over many
// rounds or chunks). want: each bucket's sum by the CPU's group law.
template <class C>
struct sorted_entries_t {
  std::vector<uint32_t> keys, vals;
  std::vector<ec::jacobian_t<C>> want;
};
template <class C>
sorted_entries_t<C> sorted_entries(const std::vector<ec::affine_t<C>>& bases, uint32_t c, uint32_t windows, int trial,
                                   std::mt19937_64& rng) {
  const uint32_t buckets = uint32_t(1) << (c - 1);
  const size_t n = trial % 2 ? 300 + rng() % 200 : 1 + rng() % 500;
  std::vector<std::pair<uint32_t, uint32_t>> entries(n);
  for (auto& [key, val] : entries) {
    const uint32_t w = uint32_t(rng() % windows);
    const uint32_t mag = trial % 2 ? (rng() % 4 == 0 ? uint32_t(rng() % (buckets + 1)) : 3u)
                                   : uint32_t(rng() % (buckets + 1));
    key = (w << c) | mag;
    val = uint32_t(rng() % bases.size()) << 1 | uint32_t(rng() % 2);
  }
  std::stable_sort(entries.begin(), entries.end(), [](auto& a, auto& b) { return a.first < b.first; });
  sorted_entries_t<C> out;
  out.want.assign(size_t(windows) * buckets, ec::jacobian_t<C>::infinity());
  for (const auto& [key, val] : entries) {
    out.keys.push_back(key);
    out.vals.push_back(val);
    if (msm_algo::key_magnitude(key, c) == 0) continue;
    const auto& b = bases[val >> 1];
    out.want[msm_algo::bucket_of(key, c, buckets)] += ec::jacobian_t<C>::from_affine(val & 1 ? -b : b);
  }
  return out;
}

// 24 random G1 bases and one at infinity, on the host and as F's.
template <class F>
std::pair<std::vector<ec::affine_t<ec::g1_curve>>, std::vector<affine_d<F>>> few_bases(std::mt19937_64& rng) {
  auto host = cuzk::gpu::test::random_points<ec::g1_curve>(24, rng);
  host.push_back(ec::affine_t<ec::g1_curve>::infinity());
  std::vector<affine_d<F>> dev;
  for (const auto& b : host) dev.push_back(to_d<affine_d<F>>(b));
  return {host, dev};
}

// The affine rounds over sorted_entries, in slices of 1, 2, 3, 7 entries and
// whole (runs split across slices); over fp_d and over fp_lazy_d (the G1
// MSM's form, whose equal x and zero y are congruences).
template <class F>
void check_affine_sums(uint64_t seed) {
  using C = ec::g1_curve;
  std::mt19937_64 rng(seed);
  const auto [host_bases, bases] = few_bases<F>(rng);
  const uint32_t c = 4, windows = 3;
  for (int trial = 0; trial < 8; ++trial) {
    const auto e = sorted_entries(host_bases, c, windows, trial, rng);
    const size_t n = e.keys.size();
    for (size_t slice : {size_t(1), size_t(2), size_t(3), size_t(7), n}) {
      for (size_t single_below : {size_t(1), msm_affine::single_below}) {
        std::vector<xyzz_d<F>> got(e.want.size(), xyzz_d<F>::inf());
        const size_t rounds = host_affine_sums(bases, e.keys, e.vals, slice, c, single_below, got);
        if (slice == n && trial % 2) {
          EXPECT_GE(rounds, 6u) << "a skewed bucket takes log2 of its size in rounds";
        }
        for (size_t k = 0; k < e.want.size(); ++k)
          ASSERT_EQ(to_h<ec::xyzz_t<C>>(canonical(got[k])).to_jacobian(), e.want[k])
              << "trial " << trial << " n=" << n << " slice " << slice << " bucket " << k << " seed " << seed;
      }
    }
  }
}

TEST(gpu_msm_emulated, affine_sums_match_bucket_sums) {
  check_affine_sums<fp_d>(cuzk::test::seed("gpu_msm_emulated.affine sums"));
}

TEST(gpu_msm_emulated, affine_sums_below_2p_match_bucket_sums) {
  check_affine_sums<fp_lazy_d>(cuzk::test::seed("gpu_msm_emulated.affine sums below 2p"));
}

// The binary-GCD inversion (bingcd_d.cuh: mont_d::inverse, which every device
// normalisation uses) against the host field's.
// Values whose binary GCD is least like a random one's: small, powers of two,
// just below the modulus, all ones, and long runs of equal top bits.
template <class H>
std::vector<H> edge_values() {
  std::vector<H> v{H::one(), -H::one(), H::from_u64(2), H::from_u64(3), -H::from_u64(2), H::from_u64(~0ull)};
  for (int k : {1, 31, 32, 33, 63, 64, 65, 127, 200, 250, 254, 300, 380})
    if (size_t(k) < H::bits) {
      H p = H::one();
      for (int i = 0; i < k; ++i) p = p.dbl();
      v.push_back(p);
      v.push_back(p - H::one());
      v.push_back(-p);
      v.push_back(p + H::one());
    }
  // Canonical values with the top limb full and the rest zero, and all bits below the top.
  auto limbs = H::modulus;
  for (auto& l : limbs) l = 0;
  limbs.back() = H::modulus.back() - 1;
  if (auto x = H::from_canonical(limbs)) v.push_back(*x);
  for (auto& l : limbs) l = ~0ull;
  limbs.back() = H::modulus.back() - 1;
  if (auto x = H::from_canonical(limbs)) v.push_back(*x);
  return v;
}

template <class D, class H>
void check_inverse(const char* name, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<H> xs = edge_values<H>();
  for (int i = 0; i < 20000; ++i) xs.push_back(H::random(rng));
  for (const H& x : xs) {
    if (x.is_zero()) continue;
    D r;
    ASSERT_TRUE(to_d<D>(x).try_inverse(r)) << name << " " << x.to_hex() << " seed " << seed;
    ASSERT_EQ(to_h<H>(r), x.inverse()) << name << " " << x.to_hex() << " seed " << seed;
    ASSERT_EQ(to_h<H>(to_d<D>(x).inverse()), x.inverse()) << name << " " << x.to_hex() << " seed " << seed;
  }
  // Fermat, kept as the fallback, agrees on a few.
  for (size_t i = 0; i < 20; ++i)
    ASSERT_EQ(to_h<H>(to_d<D>(xs[i]).fermat_inverse()), xs[i].inverse()) << name << " seed " << seed;
  D r;
  EXPECT_FALSE(D::zero().try_inverse(r)) << "0 has no inverse: the steps cannot end at gcd 1";
  EXPECT_TRUE(D::zero().inverse().is_zero()) << "0 inverts to 0, as Fermat's does";
}

TEST(gpu_bingcd, fp_inverse_matches_host) { check_inverse<fp_d, ff::fp_t>("fp", cuzk::test::seed("gpu_bingcd fp")); }
TEST(gpu_bingcd, fr_inverse_matches_host) { check_inverse<fr_d, ff::fr_t>("fr", cuzk::test::seed("gpu_bingcd fr")); }

// Through fp_lazy_d (values below 2p: the representative p + x of x too).
TEST(gpu_bingcd, lazy_inverse_of_either_representative) {
  const uint64_t seed = cuzk::test::seed("gpu_bingcd lazy");
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 200; ++i) {
    const ff::fp_t x = ff::fp_t::random(rng);
    fp_lazy_d a = to_d<fp_lazy_d>(x);
    fp_lazy_d b = a + fp_lazy_d::zero();  // x itself
    // x + p: add p limb-wise (x < p, so x + p < 2p is a valid lazy value).
    constexpr auto p = fp_lazy_d::modulus();
    uint64_t c = 0;
    for (int k = 0; k < fp_lazy_d::n; ++k) {
      c += uint64_t(b.v.l[k]) + p.v[k];
      b.v.l[k] = uint32_t(c);
      c >>= 32;
    }
    for (const fp_lazy_d& y : {a, b})
      ASSERT_EQ(to_h<ff::fp_t>(y.inverse().canonical()), x.inverse()) << "seed " << seed;
  }
}

// The lanes over sorted_entries (a lane often meets the point it holds:
// doublings, and its negative: an empty sum), chunk lengths from 1 up,
// threads of K lanes with the last thread's lanes partly idle, then
// msm_algo's fix-up; against per-bucket sums on the host.
template <class F, int K>
void check_lanes(uint64_t seed) {
  using C = ec::g1_curve;
  using P = xyzz_d<F>;
  std::mt19937_64 rng(seed);
  const auto [host_bases, bases] = few_bases<F>(rng);
  const uint32_t c = 4, windows = 3, buckets = uint32_t(1) << (c - 1);
  for (int trial = 0; trial < 8; ++trial) {
    const auto e = sorted_entries(host_bases, c, windows, trial, rng);
    const size_t n = e.keys.size();
    for (size_t threads : {size_t(1), size_t(3), size_t(7), size_t(40)}) {
      const auto plan = msm_lanes::lanes_plan::make(n, threads, K);
      ASSERT_GE(plan.L * plan.chunks, n);
      ASSERT_LT((plan.chunks - 1) * plan.L, n);
      std::vector<P> got(e.want.size(), P::inf()), head(plan.chunks), tail(plan.chunks);
      std::vector<uint8_t> open(plan.chunks, 7);
      for (size_t t = 0; t < plan.threads; ++t)
        msm_lanes::accumulate_lanes<F, K>(bases.data(), e.keys.data(), e.vals.data(), n, plan.L, plan.chunks, t, c,
                                          buckets, got.data(), head.data(), tail.data(), open.data());
      for (size_t t = 0; t < plan.chunks; ++t) {
        ASSERT_LE(open[t], 1u) << "chunk " << t << " left unwritten";
        msm_algo::fixup_chunk(e.keys.data(), n, plan.L, t, c, buckets, got.data(), head.data(), tail.data(),
                              open.data());
      }
      for (size_t k = 0; k < e.want.size(); ++k)
        ASSERT_EQ(to_h<ec::xyzz_t<C>>(canonical(got[k])).to_jacobian(), e.want[k])
            << "trial " << trial << " n=" << n << " threads " << threads << " L " << plan.L << " bucket " << k
            << " seed " << seed;
    }
  }
}

TEST(gpu_msm_emulated, lanes_match_bucket_sums) {
  check_lanes<fp_d, 4>(cuzk::test::seed("gpu_msm_emulated.lanes"));
  check_lanes<fp_d, 1>(cuzk::test::seed("gpu_msm_emulated.lanes one"));
}

TEST(gpu_msm_emulated, lanes_below_2p_match_bucket_sums) {
  check_lanes<fp_lazy_d, 8>(cuzk::test::seed("gpu_msm_emulated.lanes below 2p"));
}

}  // namespace
