// CPU NTT throughput: natural-order forward NTT at 2^12..2^22 on one thread and
// on every thread of the arena, the bit-reversal pass alone, and the Groth16
// quotient (7 transforms). items/s counts radix-2 butterflies (n/2 * log n per
// transform) so sizes compare directly.
#include <benchmark/benchmark.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>

#include <random>
#include <vector>

#include "poly/poly.hpp"

using namespace cuzk::poly;
using cuzk::ff::fr_t;

namespace {

std::vector<fr_t> random_vec(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<fr_t> v(n);
  for (auto& e : v) e = fr_t::random(rng);
  return v;
}

int arena_threads(bool single) { return single ? 1 : tbb::info::default_concurrency(); }

void set_butterflies(benchmark::State& st, const domain_t& d, int transforms) {
  st.SetItemsProcessed(int64_t(st.iterations()) * transforms * int64_t(d.n / 2) * d.log_n);
  st.counters["threads"] = double(st.range(1) ? 1 : tbb::info::default_concurrency());
}

void bm_ntt(benchmark::State& st) {
  domain_t d(uint32_t(st.range(0)));
  auto x = random_vec(d.n, 1);
  tbb::task_arena arena(arena_threads(st.range(1)));
  for (auto _ : st) {
    arena.execute([&] { ntt(d, x); });
    benchmark::DoNotOptimize(x.data());
  }
  set_butterflies(st, d, 1);
}

void bm_bit_reverse(benchmark::State& st) {
  auto x = random_vec(size_t(1) << st.range(0), 2);
  tbb::task_arena arena(arena_threads(st.range(1)));
  for (auto _ : st) {
    arena.execute([&] { bit_reverse(x); });
    benchmark::DoNotOptimize(x.data());
  }
  st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(x.size() * sizeof(fr_t)));
}

void bm_compute_h(benchmark::State& st) {
  domain_t d(uint32_t(st.range(0)));
  const auto a0 = random_vec(d.n, 3), b0 = random_vec(d.n, 4), c0 = random_vec(d.n, 5);
  std::vector<fr_t> a(d.n), b(d.n), c(d.n);
  tbb::task_arena arena(arena_threads(st.range(1)));
  for (auto _ : st) {
    st.PauseTiming();
    a = a0, b = b0, c = c0;
    st.ResumeTiming();
    arena.execute([&] { compute_h(d, a, b, c); });
    benchmark::DoNotOptimize(a.data());
  }
  set_butterflies(st, d, 6);
}

// Args: {log_n, single_thread}.
void ntt_args(benchmark::internal::Benchmark* b) {
  for (int single : {1, 0})
    for (int k = 12; k <= 22; k += 2) b->Args({k, single});
}

}  // namespace

BENCHMARK(bm_ntt)->Apply(ntt_args)->ArgNames({"log_n", "one_thread"})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_bit_reverse)
    ->ArgsProduct({{16, 20, 22}, {1, 0}})
    ->ArgNames({"log_n", "one_thread"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(bm_compute_h)
    ->ArgsProduct({{16, 20}, {1, 0}})
    ->ArgNames({"log_n", "one_thread"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
