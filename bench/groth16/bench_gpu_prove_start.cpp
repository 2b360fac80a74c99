// GPU prove_start of the hash-chain circuit at 2^22 and 2^24 rows, one proof
// at a time on an idle machine: the whole call with the MSMs overlapped (as
// the engine runs it), and the same call with every step in turn, whose
// stage_ms is the per-stage breakdown (checks, compute_h with the uploads of
// a, b, c, each MSM with its scalars' upload and host compaction). Parameters
// by the GPU setup, once per size; the witness is synthesized outside the
// timed region. Counters: mean ms of each step. The pinned and pageable
// rows stream every query from host memory per proof (residency tiers). The
// pin_witness rows page-lock each witness's buffers before the timed call,
// as the engine does on its synthesis worker, so a, b, c and aux go up by DMA.
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>

#include "circuits/circuits.hpp"
#include "gpu/device.hpp"
#include "groth16/gpu_prover.hpp"
#include "groth16/gpu_setup.hpp"
#include "groth16/groth16.hpp"

using namespace cuzk;

namespace {

struct gpu_setup_t {
  std::unique_ptr<circuits::any_circuit> circuit;
  groth16::parameters_t params;
  r1cs::shape_counts_t shape;
};

const gpu_setup_t& gpu_setup_for(size_t rows) {
  static std::map<size_t, gpu_setup_t> cache;
  auto it = cache.find(rows);
  if (it == cache.end()) {
    cache.clear();  // one size at a time: a 2^24 set is ~8 GB of host memory
    gpu_setup_t s{circuits::make_circuit("hash-chain", rows), {}, {}};
    groth16::seeded_rng rng(rows);
    s.params = groth16::generate_parameters_gpu(*s.circuit, groth16::toxic_waste_t::random(rng));
    s.shape = s.circuit->prove_shape();
    it = cache.emplace(rows, std::move(s)).first;
  }
  return it->second;
}

void bm_gpu_prove_start(benchmark::State& st) {
  if (gpu::device_count() == 0) {
    st.SkipWithError("no CUDA device of compute capability >= 9.0");
    return;
  }
  const size_t rows = size_t(1) << st.range(0);
  const bool overlap = st.range(1) != 0;
  const auto tier = static_cast<gpu::residency_t>(st.range(2));
  const bool pin_witness = st.range(3) != 0;
  const auto& s = gpu_setup_for(rows);
  groth16::gpu_prover_options_t options;
  options.overlap = overlap;
  options.residency.forced = tier;
  const groth16::gpu_prover_t prover(s.params, options);
  prover.prove_start(s.circuit->prove_witness(s.shape));  // warm-up: scratch, tables, staging buffers
  std::map<std::string, double> sums;
  for (auto _ : st) {
    auto w = s.circuit->prove_witness(s.shape);
    if (pin_witness) groth16::gpu_prover_t::pin_witness(w);
    const auto t0 = std::chrono::steady_clock::now();
    auto pending = prover.prove_start(std::move(w));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    st.SetIterationTime(ms / 1e3);
    for (const auto& [name, v] : pending.stage_ms) sums[name] += v;
  }
  for (const auto& [name, v] : sums) st.counters[name] = v / double(st.iterations());
}

}  // namespace

// Args: log2 rows, overlap (1: as the engine runs it; 0: steps in turn),
// residency (0 device, 1 pinned, 2 pageable: every query streamed over PCIe),
// pin_witness (1: the witness page-locked before the call).
BENCHMARK(bm_gpu_prove_start)
    ->ArgNames({"log_rows", "overlap", "tier", "pin_witness"})
    ->Args({22, 1, 0, 0})
    ->Args({22, 0, 0, 0})
    ->Args({24, 1, 0, 0})
    ->Args({24, 0, 0, 0})
    ->Args({24, 1, 0, 1})
    ->Args({24, 0, 0, 1})
    ->Args({24, 1, 1, 0})
    ->Args({24, 0, 1, 0})
    ->Args({24, 1, 2, 0})
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
