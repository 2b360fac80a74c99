// Single-core cost of field operations. Most benchmarks run a dependent chain
// (x = x op y), so an operation cannot overlap the next one and the time is its
// latency; the _x8 variants run eight independent chains to show throughput.
//
// Counters: time/op from CPU time (mean over the run), and cycles/op from the
// fastest chain of the run, timed with the TSC and divided by the TSC ticks per
// core cycle of a chain of dependent 64-bit adds (1 cycle each on every x86-64
// core). The fastest chain is the one least disturbed by the other processes of
// a shared machine, and the ratio needs neither perf (absent in VMs) nor the
// nominal MHz of /proc/cpuinfo.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "ff/fp.hpp"
#include "ff/fr.hpp"

namespace {

using cuzk::ff::fp_t;
using cuzk::ff::fr_t;

constexpr int chain = 256;  // operations per timed chain

#if defined(__x86_64__)
uint64_t ticks_begin() {
  _mm_lfence();
  return __rdtsc();
}
uint64_t ticks_end() {
  unsigned aux;
  uint64_t t = __rdtscp(&aux);  // waits for the chain to retire
  _mm_lfence();
  return t;
}

// TSC ticks per core cycle, from the fastest of many short add chains.
double ticks_per_cycle() {
  static const double v = [] {
    constexpr uint64_t loops = 1000, adds_per_loop = 32;
    uint64_t best = std::numeric_limits<uint64_t>::max();
    for (int rep = 0; rep < 2000; ++rep) {
      uint64_t x = 1, n = loops;
      uint64_t t0 = ticks_begin();
      asm volatile(
          "1:\n\t"
          ".rept 32\n\t"
          "addq %[x], %[x]\n\t"
          ".endr\n\t"
          "decq %[n]\n\t"
          "jnz 1b"
          : [x] "+r"(x), [n] "+r"(n)
          :
          : "cc");
      best = std::min(best, ticks_end() - t0);
    }
    return double(best) / double(loops * adds_per_loop);
  }();
  return v;
}
#else
uint64_t ticks_begin() { return 0; }
uint64_t ticks_end() { return 0; }
double ticks_per_cycle() { return 0; }
#endif

// Runs body() (one chain of `ops` operations) per benchmark iteration.
template <class Body>
void run_chains(benchmark::State& st, int ops, Body&& body) {
  uint64_t best = std::numeric_limits<uint64_t>::max();
  for (auto _ : st) {
    uint64_t t0 = ticks_begin();
    body();
    best = std::min(best, ticks_end() - t0);
  }
  using C = benchmark::Counter;
  double total = double(st.iterations()) * ops;
  st.counters["time/op"] = C(total, C::kIsRate | C::kInvert);  // printed as seconds
  if (ticks_per_cycle() > 0) st.counters["cycles/op"] = double(best) / ops / ticks_per_cycle();
}

template <class F>
void bm_mul(benchmark::State& st) {
  std::mt19937_64 rng(1);
  F x = F::random(rng), y = F::random(rng);
  run_chains(st, chain, [&] {
    for (int i = 0; i < chain; ++i) x *= y;
    benchmark::DoNotOptimize(x);
  });
}

template <class F>
void bm_mul_x8(benchmark::State& st) {
  std::mt19937_64 rng(1);
  F x[8], y = F::random(rng);
  for (auto& e : x) e = F::random(rng);
  run_chains(st, chain, [&] {
    for (int i = 0; i < chain / 8; ++i) {
      for (auto& e : x) e *= y;
    }
    benchmark::DoNotOptimize(x);
  });
}

template <class F>
void bm_sqr(benchmark::State& st) {
  std::mt19937_64 rng(2);
  F x = F::random(rng);
  run_chains(st, chain, [&] {
    for (int i = 0; i < chain; ++i) x = x.sqr();
    benchmark::DoNotOptimize(x);
  });
}

template <class F>
void bm_add(benchmark::State& st) {
  std::mt19937_64 rng(3);
  F x = F::random(rng), y = F::random(rng);
  run_chains(st, chain, [&] {
    for (int i = 0; i < chain; ++i) x += y;
    benchmark::DoNotOptimize(x);
  });
}

template <class F>
void bm_sub(benchmark::State& st) {
  std::mt19937_64 rng(4);
  F x = F::random(rng), y = F::random(rng);
  run_chains(st, chain, [&] {
    for (int i = 0; i < chain; ++i) x -= y;
    benchmark::DoNotOptimize(x);
  });
}

// Fermat inversion: about `bits` squarings and bits/2 multiplications.
template <class F>
void bm_inverse(benchmark::State& st) {
  std::mt19937_64 rng(5);
  F x = F::random(rng);
  run_chains(st, 1, [&] {
    x = x.inverse() + F::one();  // + 1 keeps the chain off fixed points and 0
    benchmark::DoNotOptimize(x);
  });
}

BENCHMARK(bm_mul<fp_t>)->Name("ff_fp_mul");
BENCHMARK(bm_mul_x8<fp_t>)->Name("ff_fp_mul_x8");
BENCHMARK(bm_sqr<fp_t>)->Name("ff_fp_sqr");
BENCHMARK(bm_add<fp_t>)->Name("ff_fp_add");
BENCHMARK(bm_sub<fp_t>)->Name("ff_fp_sub");
BENCHMARK(bm_inverse<fp_t>)->Name("ff_fp_inverse");
BENCHMARK(bm_mul<fr_t>)->Name("ff_fr_mul");
BENCHMARK(bm_mul_x8<fr_t>)->Name("ff_fr_mul_x8");
BENCHMARK(bm_sqr<fr_t>)->Name("ff_fr_sqr");
BENCHMARK(bm_add<fr_t>)->Name("ff_fr_add");
BENCHMARK(bm_sub<fr_t>)->Name("ff_fr_sub");
BENCHMARK(bm_inverse<fr_t>)->Name("ff_fr_inverse");

}  // namespace
