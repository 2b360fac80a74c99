// a, b, c formed on the GPU from the compact witness (gpu::form_rows, issue
// 18): per PoRep sector size, the compact upload, the row kernels and the
// row check, each by CUDA events (median over iterations after a warm-up
// call), against the bytes the eager path uploads (a, b, c padded to the
// domain and the aux assignment, 32 bytes each). The witness is random
// (synthesis does the same work for any values); the matrices go up once,
// outside the timing.
//   cuzk_bench --benchmark_filter='bm_gpu_rows/32GiB'
#include <benchmark/benchmark.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "circuits/porep_circuit.hpp"
#include "circuits/porep_compiled_t.hpp"
#include "circuits/porep_layout_t.hpp"
#include "circuits/porep_random_witness.hpp"
#include "circuits/porep_synthesis.hpp"
#include "gpu/compiled_rows.hpp"
#include "gpu/device.hpp"
#include "porep/sector_params_t.hpp"
#include "r1cs/witness_cs.hpp"

using namespace cuzk;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

void bm_gpu_rows(benchmark::State& state, const std::string& size) {
  if (gpu::device_count() == 0) {
    state.SkipWithError("no GPU");
    return;
  }
  const auto shape = circuits::porep_circuit_shape_t::for_sector(porep::sector_params_for(porep::parse_sector_size(size)));
  const circuits::porep_circuit circuit(shape, circuits::random_porep_witness(shape, 1));
  const auto compiled = std::make_shared<const circuits::porep_compiled_t>(
      circuits::porep_compiled_t::compile(circuit, circuits::porep_layout_t::measure(circuit)));
  const r1cs::witness_cs w =
      circuits::into_deferred_witness(circuits::assign_porep_compiled(circuit, *compiled, true), compiled);
  const auto t0 = std::chrono::steady_clock::now();
  const gpu::device_rows_t rows(*w.row_evaluator()->view());
  const double matrices_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const std::size_t n = std::bit_ceil(rows.num_constraints());
  { gpu::device_witness_t warm = gpu::form_rows(rows, w.input_assignment(), w.compact_aux(), n); }
  std::vector<double> up, form, check;
  for (auto _ : state) {
    gpu::device_witness_t d = gpu::form_rows(rows, w.input_assignment(), w.compact_aux(), n);
    up.push_back(d.upload_ms);
    form.push_back(d.rows_ms);
    check.push_back(d.check_ms);
    benchmark::DoNotOptimize(d.first_unsatisfied);
  }
  const double mib = double(1 << 20);
  state.counters["constraints"] = double(rows.num_constraints());
  state.counters["matrices_MiB"] = double(rows.bytes()) / mib;
  state.counters["matrices_upload_ms"] = matrices_ms;
  state.counters["h2d_MiB"] = double(w.compact_aux().bytes() + w.num_inputs() * sizeof(ff::fr_t)) / mib;
  state.counters["eager_h2d_MiB"] = double((3 * n + w.num_aux()) * sizeof(ff::fr_t)) / mib;
  state.counters["wide_pct"] = 100.0 * double(w.compact_aux().wide_count()) / double(std::max<std::size_t>(w.num_aux(), 1));
  state.counters["upload_ms"] = median(up);
  state.counters["rows_ms"] = median(form);
  state.counters["check_ms"] = median(check);
}

const int registered = [] {
  for (const char* s : {"2KiB", "8MiB", "512MiB", "32GiB"}) {
    benchmark::RegisterBenchmark((std::string("bm_gpu_rows/") + s).c_str(), bm_gpu_rows, std::string(s))
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(5);
  }
  return 0;
}();

}  // namespace
