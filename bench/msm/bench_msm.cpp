// CPU MSM throughput: G1 2^12..2^20 (all threads and one), Filecoin-like
// scalars (70 % zero or one), G2 2^12..2^16, and the two ways to sum the
// bases of scalar 1. Run: cuzk_bench --benchmark_filter=msm
#include <benchmark/benchmark.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <random>
#include <vector>

#include "msm/batch_add.hpp"
#include "msm/msm.hpp"

using namespace cuzk;
using ff::fr_t;

namespace {

template <class C>
ec::affine_t<C> generator();
template <>
ec::g1_affine_t generator<ec::g1_curve>() { return ec::g1_generator(); }
template <>
ec::g2_affine_t generator<ec::g2_curve>() { return ec::g2_generator(); }

// 256 random starting points, each continued by adding G: one scalar
// multiplication per stream instead of per point, which would take minutes at 2^20.
template <class C>
const std::vector<ec::affine_t<C>>& bases(size_t n) {
  static std::vector<ec::affine_t<C>> cache;
  if (cache.size() >= n) return cache;
  constexpr size_t streams = 256;
  using J = ec::jacobian_t<C>;
  std::mt19937_64 rng(0x6d736d);
  std::vector<J> start(streams);
  for (auto& s : start) s = J::from_affine(generator<C>()).mul(fr_t::random(rng));
  std::vector<J> pts(n);
  size_t per = (n + streams - 1) / streams;
  const ec::affine_t<C> g = generator<C>();
  tbb::parallel_for(size_t(0), streams, [&](size_t s) {
    J p = start[s];
    for (size_t i = s * per; i < std::min(n, (s + 1) * per); ++i, p = p.add_mixed(g)) pts[i] = p;
  });
  cache = ec::batch_to_affine<C>(pts);
  return cache;
}

// random_pct of the scalars uniform in Fr, the rest split evenly between 0 and 1.
std::vector<fr_t> scalars(size_t n, unsigned random_pct) {
  std::mt19937_64 rng(0x5ca1a5 + n + random_pct);
  std::vector<fr_t> s(n);
  for (auto& x : s) {
    unsigned k = unsigned(rng() % 100);
    x = k < random_pct ? fr_t::random(rng) : (k - random_pct) % 2 ? fr_t::one() : fr_t::zero();
  }
  return s;
}

template <class C>
void run_msm(benchmark::State& state, unsigned random_pct, msm::bit_split split) {
  size_t n = size_t(1) << state.range(0);
  int threads = int(state.range(1));
  const auto& b = bases<C>(n);
  std::vector<fr_t> s = scalars(n, random_pct);
  std::span<const ec::affine_t<C>> bs(b.data(), n);
  tbb::task_arena arena(threads ? threads : tbb::task_arena::automatic);
  for (auto _ : state) {
    arena.execute([&] { benchmark::DoNotOptimize(msm::msm<C>(bs, std::span<const fr_t>(s), {0, split})); });
  }
  state.counters["points/s"] = benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
}

// One thread, window width forced: checks the plan's choice of c and its cap.
void msm_g1_window(benchmark::State& state) {
  size_t n = size_t(1) << state.range(0);
  std::span<const ec::g1_affine_t> bs(bases<ec::g1_curve>(n).data(), n);
  std::vector<fr_t> s = scalars(n, 100);
  tbb::task_arena arena(1);
  msm::msm_options opt{unsigned(state.range(1)), msm::bit_split::never};
  for (auto _ : state) {
    arena.execute([&] { benchmark::DoNotOptimize(msm::msm<ec::g1_curve>(bs, std::span<const fr_t>(s), opt)); });
  }
}

void msm_g1(benchmark::State& state) { run_msm<ec::g1_curve>(state, 100, msm::bit_split::automatic); }
void msm_g1_filecoin(benchmark::State& state) { run_msm<ec::g1_curve>(state, 30, msm::bit_split::automatic); }
void msm_g1_filecoin_nosplit(benchmark::State& state) { run_msm<ec::g1_curve>(state, 30, msm::bit_split::never); }
void msm_g2(benchmark::State& state) { run_msm<ec::g2_curve>(state, 100, msm::bit_split::automatic); }

template <class C, bool affine_tree>
void sum_of_bases(benchmark::State& state) {
  size_t n = size_t(1) << state.range(0);
  std::span<const ec::affine_t<C>> bs(bases<C>(n).data(), n);
  for (auto _ : state) {
    if constexpr (affine_tree) benchmark::DoNotOptimize(msm::sum_affine<C>(bs, msm::point_index_t::all(n)));
    else benchmark::DoNotOptimize(msm::sum_xyzz<C>(bs, msm::point_index_t::all(n)));
  }
  state.counters["points/s"] = benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
}

void msm_sum_g1_affine_tree(benchmark::State& state) { sum_of_bases<ec::g1_curve, true>(state); }
void msm_sum_g1_xyzz(benchmark::State& state) { sum_of_bases<ec::g1_curve, false>(state); }
void msm_sum_g2_affine_tree(benchmark::State& state) { sum_of_bases<ec::g2_curve, true>(state); }
void msm_sum_g2_xyzz(benchmark::State& state) { sum_of_bases<ec::g2_curve, false>(state); }

// One XYZZ mixed addition into a bucket: the unit of the Pippenger cost model.
template <class C>
void add_mixed(benchmark::State& state) {
  const auto& b = bases<C>(1024);
  ec::xyzz_t<C> acc = ec::xyzz_t<C>::infinity();
  for (auto _ : state) {
    for (size_t i = 0; i < 1024; ++i) acc.add_mixed(b[i]);
    benchmark::DoNotOptimize(acc);
  }
  state.counters["ns/add"] = benchmark::Counter(1024, benchmark::Counter::kIsIterationInvariantRate |
                                                          benchmark::Counter::kInvert);
}
void msm_add_mixed_g1(benchmark::State& state) { add_mixed<ec::g1_curve>(state); }
void msm_add_mixed_g2(benchmark::State& state) { add_mixed<ec::g2_curve>(state); }

}  // namespace

BENCHMARK(msm_add_mixed_g1);
BENCHMARK(msm_add_mixed_g2);
// Args: {log2 n, threads (0 = all)}. The CPU column is summed over all threads,
// so on a shared box CPU / threads bounds what an idle machine would take.
BENCHMARK(msm_g1)->ArgsProduct({{12, 14, 16, 18, 20}, {0, 1}})->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(msm_g1_window)->ArgsProduct({{18}, {12, 13, 14, 15, 16, 17, 18}})->Unit(benchmark::kMillisecond);
BENCHMARK(msm_g1_filecoin)->ArgsProduct({{16, 20}, {0}})->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(msm_g1_filecoin_nosplit)->ArgsProduct({{16, 20}, {0}})->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(msm_g2)->ArgsProduct({{12, 14, 16}, {0}})->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(msm_sum_g1_affine_tree)->Arg(16)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(msm_sum_g1_xyzz)->Arg(16)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(msm_sum_g2_affine_tree)->Arg(14)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(msm_sum_g2_xyzz)->Arg(14)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
