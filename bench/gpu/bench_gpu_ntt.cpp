// GPU NTT, compute_h and field multiplication, device-resident: data is
// generated on the GPU and only kernels are timed, with CUDA events
// (UseManualTime). Skips with a message when there is no GPU.
#include <benchmark/benchmark.h>

#include <string>

#include "gpu/device.hpp"
#include "gpu/ntt_timer.hpp"
#include "gpu/probes.hpp"

namespace {

using cuzk::gpu::ntt_config;
using cuzk::gpu::ntt_dir;
using cuzk::gpu::ntt_timer;

bool have_gpu(benchmark::State& state) {
  if (cuzk::gpu::device_count() > 0) return true;
  state.SkipWithError("no CUDA device of compute capability >= 9.0");
  return false;
}

void report(benchmark::State& state, uint32_t log_n, double ms_total, double arrays = 1) {
  state.counters["ms"] = benchmark::Counter(ms_total / double(state.iterations()));
  state.SetItemsProcessed(int64_t(state.iterations()) * (int64_t(1) << log_n));
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(arrays * 32.0 * double(int64_t(1) << log_n)));
}

const ntt_config configs[] = {{10, 256}, {11, 256}, {11, 512}, {12, 512}, {12, 1024}};

// Natural order in and out: DIF passes + bit reversal.
void BM_gpu_ntt(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto log_n = uint32_t(state.range(0));
  ntt_timer t(log_n);
  double total = 0;
  for (auto _ : state) {
    double ms = t.ntt_ms(ntt_dir::forward, false);
    total += ms;
    state.SetIterationTime(ms / 1e3);
  }
  report(state, log_n, total);
}
BENCHMARK(BM_gpu_ntt)->DenseRange(20, 27)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

void BM_gpu_coset_intt(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto log_n = uint32_t(state.range(0));
  ntt_timer t(log_n);
  double total = 0;
  for (auto _ : state) {
    double ms = t.ntt_ms(ntt_dir::inverse, true);
    total += ms;
    state.SetIterationTime(ms / 1e3);
  }
  report(state, log_n, total);
}
BENCHMARK(BM_gpu_coset_intt)->DenseRange(20, 27)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

// The butterfly passes alone (bit-reversed output), per pass shape: args log_n, config index.
void BM_gpu_ntt_passes(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto log_n = uint32_t(state.range(0));
  const ntt_config cfg = configs[state.range(1)];
  state.SetLabel("tile 2^" + std::to_string(cfg.tile_log) + " x " + std::to_string(cfg.threads) + " threads");
  ntt_timer t(log_n);
  double total = 0;
  for (auto _ : state) {
    double ms = t.nr_passes_ms(ntt_dir::forward, cfg);
    total += ms;
    state.SetIterationTime(ms / 1e3);
  }
  report(state, log_n, total);
}
BENCHMARK(BM_gpu_ntt_passes)
    ->ArgsProduct({{20, 24, 27}, {0, 1, 2, 3, 4}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.2);

void BM_gpu_bit_reverse(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto log_n = uint32_t(state.range(0));
  ntt_timer t(log_n);
  double total = 0;
  for (auto _ : state) {
    double ms = t.bit_reverse_ms();
    total += ms;
    state.SetIterationTime(ms / 1e3);
  }
  report(state, log_n, total, 2);  // bytes: read + write
}
BENCHMARK(BM_gpu_bit_reverse)->DenseRange(20, 27, 7)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.2);

// 7 transforms + 1 bit reversal + quotient over a, b, c of 2^log_n each.
void BM_gpu_compute_h(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto log_n = uint32_t(state.range(0));
  ntt_timer t(log_n, 3);
  double total = 0;
  for (auto _ : state) {
    double ms = t.compute_h_ms();
    total += ms;
    state.SetIterationTime(ms / 1e3);
  }
  report(state, log_n, total);
}
BENCHMARK(BM_gpu_compute_h)->DenseRange(20, 27)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

// Operations per second of a probe kernel: probe(blocks, threads, per_thread)
// returns ms; ops_per_thread counts what one thread did; counter `name` in G/s.
template <class Probe>
void probe_rate(benchmark::State& state, Probe probe, uint32_t blocks, uint32_t threads, uint32_t per_thread,
                double ops_per_thread, const char* name) {
  if (!have_gpu(state)) return;
  double total = 0;
  for (auto _ : state) {
    double ms = probe(blocks, threads, per_thread);
    total += ms;
    state.SetIterationTime(ms / 1e3);
  }
  const double ops = double(blocks) * threads * ops_per_thread;
  state.counters[name] = benchmark::Counter(ops * double(state.iterations()) / (total / 1e3) / 1e9);
}

// Fr multiplications per second: 132 SMs x 8 blocks x 256 threads, 2 chains of 4096.
void BM_gpu_fr_mul(benchmark::State& state) {
  probe_rate(state, cuzk::gpu::fr_mul_ms, 132 * 8, 256, 4096, 2.0 * 4096, "Gmul/s");
}
BENCHMARK(BM_gpu_fr_mul)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

// The same with the Karatsuba product instead of CIOS (measured slower).
void BM_gpu_fr_mul_karatsuba(benchmark::State& state) {
  probe_rate(state, cuzk::gpu::fr_mul_karatsuba_ms, 132 * 8, 256, 4096, 2.0 * 4096, "Gmul/s");
}
BENCHMARK(BM_gpu_fr_mul_karatsuba)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

// The same on the FP64 pipe: fr52_d, 52-bit limbs multiplied by DFMA (issue 3).
void BM_gpu_fr52_mul(benchmark::State& state) {
  probe_rate(state, cuzk::gpu::fr52_mul_ms, 132 * 8, 256, 4096, 2.0 * 4096, "Gmul/s");
}
BENCHMARK(BM_gpu_fr52_mul)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

// Both pipes in each thread: 2048 iterations of 2 fr_d + 2 fr52_d products;
// the counter is the total of both kinds.
void BM_gpu_fr_mul_mixed(benchmark::State& state) {
  probe_rate(state, cuzk::gpu::fr_mul_mixed_ms, 132 * 8, 256, 2048, 4.0 * 2048, "Gmul/s");
}
BENCHMARK(BM_gpu_fr_mul_mixed)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

// Fp multiplications per second, same shape (the MSM's field).
void BM_gpu_fp_mul(benchmark::State& state) {
  probe_rate(state, cuzk::gpu::fp_mul_ms, 132 * 8, 256, 2048, 2.0 * 2048, "Gmul/s");
}
BENCHMARK(BM_gpu_fp_mul)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

void BM_gpu_fp_mul_karatsuba(benchmark::State& state) {
  probe_rate(state, cuzk::gpu::fp_mul_karatsuba_ms, 132 * 8, 256, 2048, 2.0 * 2048, "Gmul/s");
}
BENCHMARK(BM_gpu_fp_mul_karatsuba)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);
void BM_gpu_fp_mul_lazy(benchmark::State& state) {
  probe_rate(state, cuzk::gpu::fp_mul_lazy_ms, 132 * 8, 256, 2048, 2.0 * 2048, "Gmul/s");
}
BENCHMARK(BM_gpu_fp_mul_lazy)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

// Fp on the FP64 pipe (fp52_d, issue 19 item 2): chains per thread; regs 0:
// two blocks of 256 per SM (128 registers), 1: one, all registers; rows 1:
// fp52_d::mul_rows (one row of products in flight), 0: operator*.
void BM_gpu_fp52_mul(benchmark::State& state) {
  const auto chains = uint32_t(state.range(0));
  const bool all = state.range(1) != 0, rows = state.range(2) != 0;
  probe_rate(state, [chains, all, rows](uint32_t b, uint32_t t, uint32_t m) {
    return cuzk::gpu::fp52_mul_ms(chains, all, rows, b, t, m);
  }, 132 * 8, 256, 2048 / chains, 2048.0, "Gmul/s");
}
BENCHMARK(BM_gpu_fp52_mul)->ArgNames({"chains", "regs", "rows"})
    ->ArgsProduct({{1, 2}, {0, 1}, {0}})->ArgsProduct({{1, 2, 4}, {0, 1}, {1}})->UseManualTime()
    ->Unit(benchmark::kMillisecond)->MinTime(0.3);

// Both pipes in each thread: 2048 iterations of one fp_d and one fp52_d
// product; the counter is the total of both kinds.
void BM_gpu_fp_mul_mixed52(benchmark::State& state) {
  probe_rate(state, cuzk::gpu::fp_mul_mixed52_ms, 132 * 8, 256, 2048, 2.0 * 2048, "Gmul/s");
}
BENCHMARK(BM_gpu_fp_mul_mixed52)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

// Fp inversions per second: the binary GCD (fermat 0, mont_d::inverse) against a^(p-2) (fermat 1).
void BM_gpu_fp_inv(benchmark::State& state) {
  const bool fermat = state.range(0) != 0;
  probe_rate(state, [fermat](uint32_t b, uint32_t t, uint32_t m) { return cuzk::gpu::fp_inv_ms(fermat, b, t, m); },
             132 * 4, 128, 16, 16.0, "Ginv/s");
}
BENCHMARK(BM_gpu_fp_inv)->ArgNames({"fermat"})->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond)
    ->MinTime(0.3);

// Fp squaring: the dedicated square (mont_d::sqr) against the CIOS product x·x.
void BM_gpu_fp_sqr(benchmark::State& state) {
  probe_rate(state, cuzk::gpu::fp_sqr_ms, 132 * 8, 256, 2048, 2.0 * 2048, "Gsqr/s");
}
BENCHMARK(BM_gpu_fp_sqr)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);
void BM_gpu_fp_sqr_by_mul(benchmark::State& state) {
  probe_rate(state, cuzk::gpu::fp_sqr_by_mul_ms, 132 * 8, 256, 2048, 2.0 * 2048, "Gsqr/s");
}
BENCHMARK(BM_gpu_fp_sqr_by_mul)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

// G1 mixed additions per second with the points in L1, at several blocks of
// 128 threads per SM (the accumulation kernel runs 128-thread blocks), over
// fp_d (lazy 0), fp_lazy_unfused_d (1: values below 2p, no final subtraction
// in products) or fp_lazy_d (2: also a·b - c·d in one reduction, the MSM's).
void BM_gpu_g1_add_mixed(benchmark::State& state) {
  const auto form = cuzk::gpu::fp_form(state.range(1));
  probe_rate(state, [form](uint32_t b, uint32_t t, uint32_t m) { return cuzk::gpu::g1_add_mixed_ms(form, b, t, m); },
             132 * uint32_t(state.range(0)), 128, 1024, 1024.0, "Gadd/s");
}
BENCHMARK(BM_gpu_g1_add_mixed)->ArgNames({"blocks", "lazy"})->ArgsProduct({{3, 4, 6, 12}, {0, 1, 2}})
    ->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

// Fp2 products and G2 mixed additions with the product of three Montgomery
// reductions (fp2_d) or of two (fp2_lazy_d, the MSM's), over Fp values below p
// or below 2p (fp_lazy_d).
void BM_gpu_fp2_mul(benchmark::State& state) {
  const bool two = state.range(0) != 0, below = state.range(1) != 0;
  probe_rate(state,
             [two, below](uint32_t b, uint32_t t, uint32_t m) { return cuzk::gpu::fp2_mul_ms(two, below, b, t, m); },
             132 * 8, 256, 1024, 2.0 * 1024, "Gmul/s");
}
BENCHMARK(BM_gpu_fp2_mul)->ArgNames({"two_reductions", "below_2p"})->ArgsProduct({{0, 1}, {0, 1}})
    ->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);
// G2 mixed additions: two_reductions 0 (fp2_d), 1 (fp2_lazy_d, the MSM's) or 2
// (fp2_lazy_fused_d: also a·b - c·d in two reductions; below p only).
void BM_gpu_g2_add_mixed(benchmark::State& state) {
  const auto product = cuzk::gpu::fp2_product(state.range(0));
  const bool below = state.range(1) != 0;
  probe_rate(state,
             [product, below](uint32_t b, uint32_t t, uint32_t m) {
               return cuzk::gpu::g2_add_mixed_ms(product, below, b, t, m);
             },
             132 * 4, 128, 512, 512.0, "Gadd/s");
}
BENCHMARK(BM_gpu_g2_add_mixed)->ArgNames({"two_reductions", "below_2p"})->Args({0, 0})->Args({1, 0})->Args({2, 0})
    ->Args({0, 1})->Args({1, 1})
    ->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);

// Memory ceiling: device-to-device copy of 4 GiB (bytes counted read + write).
void BM_gpu_d2d_copy(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const size_t bytes = size_t(4) << 30;
  double total = 0;
  for (auto _ : state) {
    double ms = cuzk::gpu::d2d_copy_ms(bytes);
    total += ms;
    state.SetIterationTime(ms / 1e3);
  }
  state.counters["TB/s"] = benchmark::Counter(2.0 * double(bytes) * double(state.iterations()) / (total / 1e3) / 1e12);
}
BENCHMARK(BM_gpu_d2d_copy)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.2);

}  // namespace
