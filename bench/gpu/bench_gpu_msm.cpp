// GPU MSM, device-resident (bases tiled from 2^20 distinct G1 / 2^19 distinct
// G2 points, more than the 50 MB L2; scalars drawn on the GPU), timed with
// CUDA events around one whole MSM after one warm-up call; the median of the
// iterations is reported as median_ms. Args: log_n, window bits (0 = cost
// model), percent of zero scalars, percent of one scalars.
// Reference (sppark on the same H200, resident data): G1 2^20 22 ms, 2^22
// 54 ms, 2^24 159 ms, 2^26 557 ms; G2 2^16 10.9 ms.
#include <benchmark/benchmark.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <tuple>
#include <vector>

#include "ec/curves.hpp"
#include "gpu/device.hpp"
#include "gpu/msm_timer.hpp"
#include "groth16/gpu_setup.hpp"

namespace {

using namespace cuzk;

template <class C>
std::vector<ec::affine_t<C>> distinct_points(size_t n) {
  using J = ec::jacobian_t<C>;
  constexpr size_t blocks = 64;
  std::vector<ec::affine_t<C>> out(n);
  const ec::affine_t<C> gen = [] {
    if constexpr (std::is_same_v<C, ec::g1_curve>) return ec::g1_generator();
    else return ec::g2_generator();
  }();
  tbb::parallel_for(size_t(0), blocks, [&](size_t b) {
    std::mt19937_64 rng(0x5eed + b);
    const J g = J::from_affine(gen);
    J p = g.mul(ff::fr_t::random(rng)), step = g.mul(ff::fr_t::random(rng));
    const size_t lo = b * n / blocks, hi = (b + 1) * n / blocks;
    std::vector<J> pts(hi - lo);
    for (auto& x : pts) x = p, p += step;
    auto aff = ec::batch_to_affine<C>(pts);
    std::copy(aff.begin(), aff.end(), out.begin() + long(lo));
  });
  return out;
}

// One timer alive at a time (the largest hold tens of GB).
template <class C>
gpu::msm_timer<C>& timer_for(uint32_t log_n, uint32_t zero_pct, uint32_t one_pct) {
  static std::unique_ptr<gpu::msm_timer<C>> t;
  static std::tuple<uint32_t, uint32_t, uint32_t> key{~0u, 0, 0};
  static std::vector<ec::affine_t<C>> distinct;
  if (key != std::tuple{log_n, zero_pct, one_pct}) {
    t.reset();
    if (distinct.empty()) distinct = distinct_points<C>(std::is_same_v<C, ec::g1_curve> ? size_t(1) << 20 : size_t(1) << 19);
    const size_t d = std::min(distinct.size(), size_t(1) << log_n);
    t = std::make_unique<gpu::msm_timer<C>>(std::span(distinct).first(d), log_n, 0xc0ffee + log_n, zero_pct, one_pct);
    key = {log_n, zero_pct, one_pct};
  }
  return *t;
}

template <class C>
void BM_gpu_msm(benchmark::State& state) {
  if (gpu::device_count() == 0) {
    state.SkipWithError("no CUDA device of compute capability >= 9.0");
    return;
  }
  const auto log_n = uint32_t(state.range(0));
  gpu::msm_config cfg;
  cfg.window_bits = uint32_t(state.range(1));
  cfg.threads = state.range(4) ? size_t(1) << state.range(4) : 0;
  cfg.sums = gpu::msm_sums(state.range(5));
  if (cfg.sums == gpu::msm_sums::lanes) {
    cfg.lanes = uint32_t(state.range(6));
  } else {
    cfg.affine_slice = state.range(6) ? size_t(1) << state.range(6) : 0;
  }
  cfg.accumulate_blocks = uint32_t(state.range(7));
  auto& t = timer_for<C>(log_n, uint32_t(state.range(2)), uint32_t(state.range(3)));
  t.msm_ms(cfg);  // warm-up: allocations, module load
  std::vector<double> ms;
  for (auto _ : state) {
    ms.push_back(t.msm_ms(cfg));
    state.SetIterationTime(ms.back() / 1e3);
  }
  std::sort(ms.begin(), ms.end());
  state.counters["median_ms"] = ms[ms.size() / 2];
  // One more call with stage events (they add a few synchronisations, so the
  // stages come from their own call; their sum is near the median above).
  gpu::msm_stage_ms st;
  cfg.stages = &st;
  t.msm_ms(cfg);
  state.counters["c"] = st.c;
  state.counters["batches"] = st.batches;
  state.counters["prep_ms"] = st.prepare;
  state.counters["sort_ms"] = st.sort;
  state.counters["acc_ms"] = st.accumulate;
  state.counters["red_ms"] = st.reduce;
  state.counters["Mpts_per_s"] = double(size_t(1) << log_n) / ms[ms.size() / 2] / 1e3;
}

// Args: log_n, window bits (0 = cost model), % zero, % one, log2 accumulation threads (0 = default),
// bucket sums (0 default, 1 XYZZ, 2 affine, 3 lanes), log2 affine slice (0 = default) or, for lanes,
// the lanes per thread (8, 16, 32; 0 = 16), blocks per SM the
// XYZZ accumulation is compiled for (msm_config::accumulate_blocks: 0 = default 4, 1 = unbounded, 3).
void g1_args(benchmark::internal::Benchmark* b) {
  for (int log_n : {20, 22, 24, 26, 27})
    for (int sums : {1, 2}) b->Args({log_n, 0, 0, 0, 0, sums, 0, 0});
  for (int log_n : {22, 24, 26, 27})
    for (int blocks : {1, 3}) b->Args({log_n, 0, 0, 0, 0, 1, 0, blocks});
  for (int c : {16, 18, 19, 20, 21}) b->Args({24, c, 0, 0, 0, 2, 0, 0});
  for (int slice : {23, 24, 26, 28}) b->Args({24, 0, 0, 0, 0, 2, slice, 0});
  for (int c : {16, 19, 20}) b->Args({22, c, 0, 0, 0, 1, 0, 0});
  for (int c : {16, 19, 20}) b->Args({24, c, 0, 0, 0, 1, 0, 0});
  // Above the cost model's cap of 20 bits (12 windows at c = 22 instead of 13).
  for (int log_n : {26, 27})
    for (int c : {20, 22}) b->Args({log_n, c, 0, 0, 0, 1, 0, 0});
  for (int log_n : {24, 26, 27})
    for (int sums : {1, 2}) b->Args({log_n, 0, 50, 40, 0, sums, 0, 0});
  // Shorter accumulation blocks (more threads, smaller chunks): what they cost.
  for (int threads_log : {18, 19, 20}) b->Args({27, 0, 0, 0, threads_log, 1, 0, 0});
  // Affine lanes (issue 19 item 1): lanes per thread and threads of lanes, at the cost model's width and at 22.
  for (int log_n : {24, 27})
    for (int threads_log : {15, 16, 17})
      for (int lanes : {8, 16, 32}) b->Args({log_n, 0, 0, 0, threads_log, 3, lanes, 0});
  b->Args({27, 22, 0, 0, 0, 3, 16, 0});
  b->Args({27, 22, 0, 0, 0, 1, 0, 0});
  b->Args({24, 0, 50, 40, 0, 3, 16, 0});
}
void g2_args(benchmark::internal::Benchmark* b) {
  for (int log_n : {16, 18, 20, 22, 24, 26}) b->Args({log_n, 0, 0, 0, 0, 0, 0, 0});
  for (int c : {13, 16, 19, 20}) b->Args({22, c, 0, 0, 0, 0, 0, 0});
  for (int c : {16, 19, 20}) b->Args({24, c, 0, 0, 0, 0, 0, 0});
  for (int threads_log : {18, 19}) b->Args({24, 0, 0, 0, threads_log, 0, 0, 0});
}

// One field form of the MSM (once(timer) times one run), 2^range(0) random
// scalars: a warm-up, then the median of the iterations.
template <class C, class Once>
void time_form(benchmark::State& state, Once once) {
  if (gpu::device_count() == 0) {
    state.SkipWithError("no CUDA device of compute capability >= 9.0");
    return;
  }
  auto& t = timer_for<C>(uint32_t(state.range(0)), 0, 0);
  once(t);  // warm-up
  std::vector<double> ms;
  for (auto _ : state) {
    ms.push_back(once(t));
    state.SetIterationTime(ms.back() / 1e3);
  }
  std::sort(ms.begin(), ms.end());
  state.counters["median_ms"] = ms[ms.size() / 2];
}

// G2 with the Fp2 product of three reductions (fp2_d, two_reductions 0), two
// (fp2_lazy_d, 1, the MSM's) or two with each a·b - c·d in two reductions
// (fp2_lazy_fused_d, 2), over Fp values below p (below_2p 0) or below 2p
// (fp_lazy_d, 1; not with 2), on the same bases and scalars: medians of 5.
void BM_gpu_msm_g2_fp2(benchmark::State& state) {
  const auto product = gpu::fp2_product(state.range(1));
  const bool below = state.range(2) != 0;
  time_form<ec::g2_curve>(state,
                          [product, below](gpu::msm_timer<ec::g2_curve>& t) { return t.msm_ms_fp2(product, below); });
}
void g2_forms(benchmark::internal::Benchmark* b) {
  for (int64_t log_n : {22, 24, 26}) {
    for (int64_t product : {0, 1, 2}) {
      for (int64_t below : {0, 1}) {
        if (product != 2 || below == 0) b->Args({log_n, product, below});
      }
    }
  }
}
BENCHMARK(BM_gpu_msm_g2_fp2)->ArgNames({"log_n", "two_reductions", "below_2p"})->Apply(g2_forms)
    ->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

// G1 over fp_d (lazy 0), fp_lazy_unfused_d (coordinates below 2p, no final
// subtraction in products, 1) or fp_lazy_d (the same with a·b - c·d in one
// reduction, 2, the MSM's), on the same bases and scalars: medians of 5.
void BM_gpu_msm_g1_lazy(benchmark::State& state) {
  const auto form = gpu::fp_form(state.range(1));
  time_form<ec::g1_curve>(state,
                          [form](gpu::msm_timer<ec::g1_curve>& t) { return t.msm_ms_fp(form); });
}
BENCHMARK(BM_gpu_msm_g1_lazy)->ArgNames({"log_n", "lazy"})->ArgsProduct({{24, 26, 27}, {0, 1, 2}})
    ->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

// The windows' digits and sorts beside the accumulation (msm_sort::overlapped,
// sort 1: at its stream priority; overlapped_above, 3: one priority step
// above it) or in turn (2), on the same bases and scalars, at the cost model's
// width (c 0) or a forced one: medians of 5, then one call with stage events
// (overlapped: sort_ms is the side stream's time in them, acc_ms the whole
// windows phase).
template <class C>
void BM_gpu_msm_sort(benchmark::State& state) {
  gpu::msm_config cfg;
  cfg.window_bits = uint32_t(state.range(1));
  cfg.sort = gpu::msm_sort(state.range(2));
  time_form<C>(state, [&cfg](gpu::msm_timer<C>& t) { return t.msm_ms(cfg); });
  if (gpu::device_count() == 0) return;
  gpu::msm_stage_ms st;
  cfg.stages = &st;
  timer_for<C>(uint32_t(state.range(0)), 0, 0).msm_ms(cfg);
  state.counters["c"] = st.c;
  state.counters["sort_ms"] = st.sort;
  state.counters["acc_ms"] = st.accumulate;
  state.counters["red_ms"] = st.reduce;
}
BENCHMARK_TEMPLATE(BM_gpu_msm_sort, ec::g1_curve)->Name("BM_gpu_msm_g1_sort")->ArgNames({"log_n", "c", "sort"})
    ->ArgsProduct({{24, 26, 27}, {0, 22}, {1, 2, 3}})->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK_TEMPLATE(BM_gpu_msm_sort, ec::g2_curve)->Name("BM_gpu_msm_g2_sort")->ArgNames({"log_n", "c", "sort"})
    ->ArgsProduct({{22, 24, 26}, {0}, {1, 2, 3}})->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

// The GPU setup's fixed-base multiplications (groth16::gpu_setup_muls: scalars
// to canonical on the host, 32 table additions and one inversion per point on
// the GPU, the points back to the host), 2^log_n random scalars, wall time.
// The inversion is mont_d::inverse (the binary GCD).
template <class C>
void BM_gpu_fixed_base(benchmark::State& state) {
  if (gpu::device_count() == 0) {
    state.SkipWithError("no CUDA device of compute capability >= 9.0");
    return;
  }
  std::mt19937_64 rng(0xf1ced);
  std::vector<ff::fr_t> k(size_t(1) << state.range(0));
  for (auto& x : k) x = ff::fr_t::random(rng);
  const auto muls = groth16::gpu_setup_muls();
  auto once = [&] {
    if constexpr (std::is_same_v<C, ec::g1_curve>) return muls.g1(k).size();
    else return muls.g2(k).size();
  };
  benchmark::DoNotOptimize(once());  // warm-up: tables, module load
  for (auto _ : state) benchmark::DoNotOptimize(once());
  state.counters["Mpts_per_s"] =
      benchmark::Counter(double(k.size()) * double(state.iterations()) / 1e6, benchmark::Counter::kIsRate);
}
BENCHMARK_TEMPLATE(BM_gpu_fixed_base, ec::g1_curve)->Name("BM_gpu_fixed_base_g1")->ArgName("log_n")->Arg(22)
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK_TEMPLATE(BM_gpu_fixed_base, ec::g2_curve)->Name("BM_gpu_fixed_base_g2")->ArgName("log_n")->Arg(20)
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

BENCHMARK_TEMPLATE(BM_gpu_msm, ec::g1_curve)
    ->Name("BM_gpu_msm_g1")->ArgNames({"log_n", "c", "zero", "one", "threads_log", "sums", "slice_log", "blocks"})->Apply(g1_args)
    ->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK_TEMPLATE(BM_gpu_msm, ec::g2_curve)
    ->Name("BM_gpu_msm_g2")->ArgNames({"log_n", "c", "zero", "one", "threads_log", "sums", "slice_log", "blocks"})->Apply(g2_args)
    ->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace
