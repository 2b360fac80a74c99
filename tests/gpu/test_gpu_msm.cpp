// GPU MSM (G1 and G2) against the CPU msm::msm, on seeded random inputs and
// the edge cases: all-zero and all-one scalars, r - 1, a single point,
// repeated bases, bases at infinity, Filecoin-like 0/1-heavy scalars, forced
// window widths and tiny chunks (runs crossing many chunk boundaries), and
// sub-ranges of a resident base set. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "gpu/device.hpp"
#include "gpu/msm_bases.hpp"
#include "gpu/msm_timer.hpp"
#include "msm/msm.hpp"
#include "msm_test_points.hpp"
#include "test_seed.hpp"

namespace {

using namespace cuzk;
using ff::fr_t;
using gpu::msm_config;

#define SKIP_WITHOUT_GPU()                                                                             \
  if (cuzk::gpu::device_count() == 0) GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 " \
                                                       "(or built without CUDA): GPU test skipped"

template <class C>
ec::jacobian_t<C> cpu(const std::vector<ec::affine_t<C>>& b, const std::vector<fr_t>& s) {
  return msm::msm<C>(std::span<const ec::affine_t<C>>(b.data(), s.size()), std::span<const fr_t>(s));
}

// Bucket sums formed one way or the other (affine: G1 only, G2 ignores it),
// with a window width and affine slice (0: defaults).
msm_config sums(gpu::msm_sums how, uint32_t c = 0, size_t slice = 0) {
  msm_config cfg;
  cfg.window_bits = c;
  cfg.sums = how;
  cfg.affine_slice = slice;
  return cfg;
}
// Affine lanes (G1 only): K lanes per thread, `threads` threads of them (0: defaults).
msm_config lanes(uint32_t K, size_t threads = 0, uint32_t c = 0) {
  msm_config cfg;
  cfg.window_bits = c;
  cfg.sums = gpu::msm_sums::lanes;
  cfg.lanes = K;
  cfg.threads = threads;
  return cfg;
}
constexpr auto affine = gpu::msm_sums::affine;
constexpr auto xyzz = gpu::msm_sums::xyzz;

template <class C>
class gpu_msm : public ::testing::Test {};
using curve_types = ::testing::Types<ec::g1_curve, ec::g2_curve>;
TYPED_TEST_SUITE(gpu_msm, curve_types);

TYPED_TEST(gpu_msm, random_sizes_match_cpu) {
  SKIP_WITHOUT_GPU();
  using C = TypeParam;
  std::mt19937_64 rng(cuzk::test::seed("gpu_msm random sizes"));
  const size_t max_n = std::is_same_v<C, ec::g1_curve> ? 150000 : 20000;
  auto bases = gpu::test::random_points<C>(max_n, rng);
  gpu::msm_bases<C> dev(bases);
  for (size_t n : {size_t(1), size_t(2), size_t(3), size_t(100), size_t(1000), max_n / 3, max_n}) {
    auto s = gpu::test::random_frs(n, rng);
    const auto want = cpu<C>(bases, s);
    EXPECT_EQ(dev.msm(s), want) << "n=" << n;
    EXPECT_EQ(dev.msm(s, 0, msm_config{0, 3}), want) << "n=" << n << " chunk 3";
    EXPECT_EQ(dev.msm(s, 0, msm_config{5, 0}), want) << "n=" << n << " c=5";
    if (n == max_n) {
      EXPECT_EQ(dev.msm(s, 0, msm_config{22, 0}), want) << "n=" << n << " c=22 (the widest)";
    }
    EXPECT_EQ(dev.msm(s, 0, sums(xyzz)), want) << "n=" << n << " xyzz";
    for (uint32_t blocks : {1u, 3u}) {
      msm_config cfg;
      cfg.accumulate_blocks = blocks;
      EXPECT_EQ(dev.msm(s, 0, cfg), want) << "n=" << n << " accumulation for " << blocks << " blocks per SM";
    }
    EXPECT_EQ(dev.msm(s, 0, sums(affine)), want) << "n=" << n << " affine";
    EXPECT_EQ(dev.msm(s, 0, sums(affine, 0, 1000)), want) << "n=" << n << " affine, slices of 1000";
    for (uint32_t K : {8u, 16u, 32u}) EXPECT_EQ(dev.msm(s, 0, lanes(K)), want) << "n=" << n << " lanes " << K;
    EXPECT_EQ(dev.msm(s, 0, lanes(16, 5)), want) << "n=" << n << " lanes 16, 5 threads (long chunks)";
  }
}

TYPED_TEST(gpu_msm, edge_cases_match_cpu) {
  SKIP_WITHOUT_GPU();
  using C = TypeParam;
  std::mt19937_64 rng(cuzk::test::seed("gpu_msm edge cases"));
  const size_t n = 3000;
  auto bases = gpu::test::random_points<C>(n, rng);
  for (size_t i = 0; i < n; i += 97) bases[i] = ec::affine_t<C>::infinity();
  for (size_t i = 50; i < n; i += 101) bases[i] = bases[i - 1];  // repeated bases
  gpu::msm_bases<C> dev(bases);
  const fr_t r_minus_1 = -fr_t::one();
  auto check = [&](const std::vector<fr_t>& s, const char* what) {
    const auto want = cpu<C>(bases, s);
    EXPECT_EQ(dev.msm(s), want) << what;
    EXPECT_EQ(dev.msm(s, 0, msm_config{0, 2}), want) << what << " chunk 2";
    EXPECT_EQ(dev.msm(s, 0, msm_config{12, 1}), want) << what << " c=12 chunk 1";
    EXPECT_EQ(dev.msm(s, 0, sums(xyzz)), want) << what << " xyzz";
    EXPECT_EQ(dev.msm(s, 0, sums(affine)), want) << what << " affine";
    EXPECT_EQ(dev.msm(s, 0, sums(affine, 12, 7)), want) << what << " affine c=12, slices of 7";
    EXPECT_EQ(dev.msm(s, 0, lanes(16)), want) << what << " lanes";
    EXPECT_EQ(dev.msm(s, 0, lanes(8, 3, 12)), want) << what << " lanes 8, 3 threads, c=12";
  };
  check(std::vector<fr_t>(n, fr_t::zero()), "all zero");
  check(std::vector<fr_t>(n, fr_t::one()), "all one");
  check(std::vector<fr_t>(n, r_minus_1), "all r-1");
  check(std::vector<fr_t>(n, fr_t::from_u64(2)), "all two (one bucket per window)");
  check(std::vector<fr_t>(1, r_minus_1), "single point r-1");
  std::vector<fr_t> mixed(n);
  for (auto& x : mixed) {
    const auto pick = rng() % 10;
    x = pick < 5 ? fr_t::zero() : pick < 9 ? fr_t::one() : fr_t::random(rng);
  }
  check(mixed, "filecoin-like: 50% zero, 40% one");
  std::vector<fr_t> neg(n);
  for (size_t i = 0; i < n; ++i) neg[i] = i % 2 ? r_minus_1 : -fr_t::from_u64(i);
  check(neg, "negatives");
  EXPECT_TRUE(dev.msm(std::vector<fr_t>{}).is_inf());
}

TYPED_TEST(gpu_msm, subranges_of_resident_bases) {
  SKIP_WITHOUT_GPU();
  using C = TypeParam;
  std::mt19937_64 rng(cuzk::test::seed("gpu_msm subranges"));
  const size_t n = 2000;
  auto bases = gpu::test::random_points<C>(n, rng);
  gpu::msm_bases<C> dev(bases);
  for (size_t off : {size_t(0), size_t(1), size_t(777)}) {
    auto s = gpu::test::random_frs(n - off - 5, rng);
    std::vector<ec::affine_t<C>> sub(bases.begin() + long(off), bases.begin() + long(off + s.size()));
    EXPECT_EQ(dev.msm(s, off), cpu<C>(sub, s)) << "offset " << off;
  }
  auto s = gpu::test::random_frs(10, rng);
  EXPECT_THROW(dev.msm(s, n - 5), std::invalid_argument);
  EXPECT_THROW(dev.msm(s, 0, msm_config{40, 0}), std::invalid_argument);
  EXPECT_THROW(dev.msm(s, 0, lanes(12)), std::invalid_argument);
}

// Bases filled in pieces (a parameter file read straight onto the device):
// every piece lands where it belongs, the last one short; a throw from the
// fill propagates.
TYPED_TEST(gpu_msm, bases_filled_in_pieces_match_cpu) {
  SKIP_WITHOUT_GPU();
  using C = TypeParam;
  std::mt19937_64 rng(cuzk::test::seed("gpu_msm pieces"));
  const size_t n = 1001;
  auto bases = gpu::test::random_points<C>(n, rng);
  auto s = gpu::test::random_frs(n, rng);
  const auto want = cpu<C>(bases, s);
  for (size_t chunk : {size_t(1) << 22, size_t(1000), size_t(7), size_t(1)}) {
    size_t pieces = 0;
    gpu::msm_bases<C> dev(
        n,
        [&](size_t at, std::span<ec::affine_t<C>> out) {
          ASSERT_LE(out.size(), chunk);
          std::copy(bases.begin() + long(at), bases.begin() + long(at + out.size()), out.begin());
          ++pieces;
        },
        chunk);
    EXPECT_EQ(pieces, (n + chunk - 1) / chunk) << chunk;
    EXPECT_EQ(dev.size(), n);
    EXPECT_EQ(dev.msm(s), want) << "pieces of " << chunk;
  }
  EXPECT_THROW(gpu::msm_bases<C>(
                   n, [](size_t at, std::span<ec::affine_t<C>>) {
                     if (at >= 500) throw std::runtime_error("bad point");
                   },
                   100),
               std::runtime_error);
}

// Windows in batches (scratch bounded), other thread targets, the stage
// times, and scalars already on the device: all the same sum.
TYPED_TEST(gpu_msm, batches_threads_and_device_scalars_match_cpu) {
  SKIP_WITHOUT_GPU();
  using C = TypeParam;
  std::mt19937_64 rng(cuzk::test::seed("gpu_msm batches"));
  const size_t n = 5000;
  auto bases = gpu::test::random_points<C>(n, rng);
  gpu::msm_bases<C> dev(bases);
  auto s = gpu::test::random_frs(n, rng);
  for (size_t i = 0; i < n; i += 7) s[i] = i % 2 ? fr_t::one() : fr_t::zero();
  const auto want = cpu<C>(bases, s);
  // Sorts beside the accumulation (sorted slots reused from the third window
  // on; two slots even for batches of one window), in turn, and as chosen.
  for (auto sort : {gpu::msm_sort::overlapped, gpu::msm_sort::in_turn, gpu::msm_sort::automatic,
                    gpu::msm_sort::overlapped_above}) {
    for (size_t batch : {size_t(1), 3 * n, size_t(0)}) {
      gpu::msm_stage_ms st;
      msm_config cfg;
      cfg.window_bits = 11;
      cfg.batch_entries = batch;
      cfg.threads = 100;
      cfg.stages = &st;
      cfg.sort = sort;
      EXPECT_EQ(dev.msm(s, 0, cfg), want) << "batch entries " << batch << " sort " << int(sort);
      EXPECT_EQ(st.c, 11u);
      EXPECT_EQ(st.others, n - (n + 6) / 7);
      const uint32_t per_batch = batch == 0 ? st.windows : uint32_t(std::max<size_t>(1, batch / st.others));
      EXPECT_EQ(st.batches, (st.windows + per_batch - 1) / per_batch) << "batch entries " << batch;
      EXPECT_GT(st.sort, 0.0);
      EXPECT_GT(st.accumulate, 0.0);
      EXPECT_GT(st.reduce, 0.0);
    }
  }
  const auto on_device = gpu::device_scalars::upload(s);
  ASSERT_EQ(on_device.size(), n);
  EXPECT_EQ(on_device.to_host(), s);
  EXPECT_EQ(dev.msm(on_device, n), want);
  std::vector<fr_t> head(s.begin(), s.begin() + 1234);
  std::vector<ec::affine_t<C>> sub(bases.begin() + 10, bases.begin() + 10 + 1234);
  EXPECT_EQ(dev.msm(on_device, 1234, 10), cpu<C>(sub, head)) << "first 1234 scalars at offset 10";
  EXPECT_THROW(dev.msm(on_device, n + 1), std::invalid_argument);
  EXPECT_THROW(dev.msm(on_device, n, 1), std::invalid_argument);
}

// Every Fp2 form (products of two or three reductions, coordinates below p
// or 2p) run through the whole G2 MSM gives the MSM's own result, on the same
// device bases and scalars (2^14 of them, 20 % zero and 20 % one, so every
// path runs); a G1 timer refuses them. The MSM's form itself is checked
// against the CPU in the tests above.
TEST(gpu_msm_fp2, every_form_gives_the_g2_msms_result) {
  SKIP_WITHOUT_GPU();
  const uint64_t seed = cuzk::test::seed("gpu_msm fp2 two reductions");
  std::mt19937_64 rng(seed);
  const auto g2 = gpu::test::random_points<ec::g2_curve>(1000, rng);
  gpu::msm_timer<ec::g2_curve> t(g2, 14, seed, 20, 20);
  t.msm_ms();
  const auto want = t.last_result();
  for (uint32_t c : {0u, 9u}) {
    msm_config cfg;
    cfg.window_bits = c;
    using gpu::fp2_product;
    for (auto product :
         {fp2_product::three_reductions, fp2_product::two_reductions, fp2_product::two_reductions_fused}) {
      for (bool below_2p : {false, true}) {
        if (product == fp2_product::two_reductions_fused && below_2p) {
          EXPECT_THROW(t.msm_ms_fp2(product, below_2p, cfg), std::invalid_argument);
          continue;
        }
        t.msm_ms_fp2(product, below_2p, cfg);
        EXPECT_EQ(t.last_result(), want) << "c " << c << " product " << int(product) << " below 2p " << below_2p
                                         << " seed " << seed;
      }
    }
  }
  EXPECT_FALSE(want.is_inf());
  const auto g1 = gpu::test::random_points<ec::g1_curve>(16, rng);
  gpu::msm_timer<ec::g1_curve> t1(g1, 6, seed);
  EXPECT_THROW(t1.msm_ms_fp2(gpu::fp2_product::two_reductions_fused, false), std::invalid_argument);
}

// The G1 MSM over either Fp form (values below p, or below 2p without the
// products' final subtraction) gives the MSM's own result, on the same device
// bases and scalars (2^14, 20 % zero and 20 % one), with the cost model's
// window and a small one, with XYZZ and affine bucket sums; a G2 timer
// refuses it.
TEST(gpu_msm_fp_lazy, both_forms_give_the_g1_msms_result) {
  SKIP_WITHOUT_GPU();
  const uint64_t seed = cuzk::test::seed("gpu_msm fp lazy");
  std::mt19937_64 rng(seed);
  const auto g1 = gpu::test::random_points<ec::g1_curve>(1000, rng);
  gpu::msm_timer<ec::g1_curve> t(g1, 14, seed, 20, 20);
  t.msm_ms();
  const auto want = t.last_result();
  for (auto how : {gpu::msm_sums::xyzz, gpu::msm_sums::affine, gpu::msm_sums::lanes}) {
    for (uint32_t c : {0u, 9u}) {
      msm_config cfg;
      cfg.window_bits = c;
      cfg.sums = how;
      cfg.lanes = c == 9 ? 8 : 32;
      for (auto form : {gpu::fp_form::below_p, gpu::fp_form::below_2p, gpu::fp_form::below_2p_fused}) {
        t.msm_ms_fp(form, cfg);
        EXPECT_EQ(t.last_result(), want) << "c " << c << " sums " << int(how) << " form " << int(form)
                                         << " seed " << seed;
      }
    }
  }
  EXPECT_FALSE(want.is_inf());
  const auto g2 = gpu::test::random_points<ec::g2_curve>(16, rng);
  gpu::msm_timer<ec::g2_curve> t2(g2, 6, seed);
  EXPECT_THROW(t2.msm_ms_fp(gpu::fp_form::below_2p_fused), std::invalid_argument);
}

// The A and B queries' scalars compacted on the device: the values whose
// bit is set, in order (against a plain host filter), and a bitmap of the
// wrong length or count refused.
TEST(gpu_compact, compact_by_bits_matches_host_filter) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(cuzk::test::seed("gpu_compact"));
  for (size_t n : {size_t(1), size_t(63), size_t(64), size_t(1000), size_t(300001)}) {
    const auto values = gpu::test::random_frs(n, rng);
    std::vector<uint64_t> words((n + 63) / 64, 0);
    std::vector<fr_t> want;
    const int dense = int(rng() % 100);
    for (size_t i = 0; i < n; ++i) {
      if (int(rng() % 100) < dense) {
        words[i / 64] |= uint64_t(1) << (i % 64);
        want.push_back(values[i]);
      }
    }
    const auto d = gpu::device_scalars::upload(values);
    const auto got = gpu::compact_by_bits(d, words, want.size());
    ASSERT_EQ(got.size(), want.size()) << "n=" << n;
    EXPECT_EQ(got.to_host(), want) << "n=" << n << " density " << dense << "%";
    EXPECT_THROW(gpu::compact_by_bits(d, words, want.size() + 1), std::invalid_argument) << "n=" << n;
    if (!want.empty()) {
      EXPECT_THROW(gpu::compact_by_bits(d, words, want.size() - 1), std::invalid_argument);
    }
    words.push_back(0);
    EXPECT_THROW(gpu::compact_by_bits(d, words, want.size()), std::invalid_argument) << "n=" << n;
  }
}

}  // namespace
