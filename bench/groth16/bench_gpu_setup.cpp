// Groth16 setup of the hash-chain circuit at 2^20 and 2^22 rows: the CPU
// setup (fixed-base multiplications on every core through TBB) against the
// same setup with those multiplications on the GPU (groth16/gpu_setup.hpp).
// Whole setups, synthesis and QAP evaluation included; one iteration each
// (a 2^22 CPU setup takes minutes). Counters: parameter points per second.
#include <benchmark/benchmark.h>

#include "circuits/circuits.hpp"
#include "gpu/device.hpp"
#include "groth16/gpu_setup.hpp"
#include "groth16/groth16.hpp"

using namespace cuzk;

namespace {

void run_setup(benchmark::State& st, bool on_gpu) {
  if (on_gpu && gpu::device_count() == 0) {
    st.SkipWithError("no GPU");
    return;
  }
  auto circuit = circuits::make_circuit("hash-chain", size_t(1) << st.range(0));
  groth16::seeded_rng rng(uint64_t(st.range(0)));
  const auto tw = groth16::toxic_waste_t::random(rng);
  size_t points = 0;
  for (auto _ : st) {
    auto p = on_gpu ? groth16::generate_parameters_gpu(*circuit, tw) : groth16::generate_parameters(*circuit, tw);
    points = p.h.size() + p.l.size() + p.a.size() + p.b_g1.size() + p.b_g2.size() + p.vk.ic.size();
    benchmark::DoNotOptimize(p.h.data());
  }
  st.counters["points"] = double(points);
  st.counters["points_per_s"] = benchmark::Counter(double(points), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_setup_gpu(benchmark::State& st) { run_setup(st, true); }
void BM_setup_cpu(benchmark::State& st) { run_setup(st, false); }

}  // namespace

BENCHMARK(BM_setup_gpu)->Arg(20)->Arg(22)->Iterations(1)->UseRealTime()->Unit(benchmark::kSecond);
BENCHMARK(BM_setup_cpu)->Arg(20)->Arg(22)->Iterations(1)->UseRealTime()->Unit(benchmark::kSecond);
