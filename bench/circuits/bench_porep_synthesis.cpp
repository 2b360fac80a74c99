// PoRep partition synthesis (issue 4 part 5): shape counting, the plain
// sequential witness mode (r1cs::witness_cs, reserved from the shape) and the
// fast slot-parallel path, per sector size. Filter by name, e.g.
//   cuzk_bench --benchmark_filter='bm_porep_synthesis/32GiB'
//   cuzk_bench --benchmark_filter='bm_porep_shape/32GiB'
// Counters: core_s = user+sys CPU seconds per iteration (all threads),
// peak_GiB = the kernel's VmHWM after the iteration (reset before it through
// /proc/self/clear_refs), rows/s/core = constraints / core_s.
//
// The witness values are random field elements below 2^254 (labels, leaves,
// siblings) and random in-range node indices: synthesis does the same work
// for any values (no data-dependent control flow), and a random witness needs
// no sealed sector, so the 32 GiB case runs anywhere with 16 GiB to spare.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <fstream>
#include <random>
#include <string>

#include "circuits/porep_circuit.hpp"
#include "circuits/porep_compiled_t.hpp"
#include "circuits/porep_layout_t.hpp"
#include "circuits/porep_random_witness.hpp"
#include "circuits/porep_synthesis.hpp"
#include "porep/sector_params_t.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/witness_cs.hpp"

using namespace cuzk;

namespace {

double core_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

void reset_peak_rss() { std::ofstream("/proc/self/clear_refs") << "5"; }

double peak_rss_gib() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return double(std::stoull(line.substr(6))) / (1024.0 * 1024.0);
  }
  return 0;
}

circuits::porep_circuit_shape_t shape_for(const std::string& size) {
  return circuits::porep_circuit_shape_t::for_sector(porep::sector_params_for(porep::parse_sector_size(size)));
}

void set_counters(benchmark::State& state, size_t rows, double core_s) {
  const double it = double(state.iterations());
  state.counters["constraints"] = double(rows);
  state.counters["core_s"] = core_s / it;
  state.counters["peak_GiB"] = peak_rss_gib();
  state.counters["rows/s/core"] = double(rows) * it / core_s;
}

void bm_shape(benchmark::State& state, const std::string& size) {
  const circuits::porep_circuit circuit(shape_for(size));
  size_t rows = 0;
  reset_peak_rss();
  const double c0 = core_seconds();
  for (auto _ : state) {
    r1cs::shape_cs cs;
    circuit.synthesize(cs);
    cs.add_input_constraints();
    rows = cs.num_constraints();
    benchmark::DoNotOptimize(rows);
  }
  set_counters(state, rows, core_seconds() - c0);
}

void bm_layout(benchmark::State& state, const std::string& size) {
  const circuits::porep_circuit circuit(shape_for(size));
  size_t rows = 0;
  const double c0 = core_seconds();
  for (auto _ : state) rows = circuits::porep_layout_t::measure(circuit).num_constraints();
  set_counters(state, rows, core_seconds() - c0);
}

void bm_witness_cs(benchmark::State& state, const std::string& size) {
  const auto shape = shape_for(size);
  const circuits::porep_circuit circuit(shape, circuits::random_porep_witness(shape, 1));
  const auto layout = circuits::porep_layout_t::measure(circuit);
  reset_peak_rss();
  const double c0 = core_seconds();
  for (auto _ : state) {
    r1cs::witness_cs cs;
    cs.reserve({layout.num_constraints(), layout.num_inputs(), layout.num_aux()});
    circuit.synthesize(cs);
    cs.add_input_constraints();
    benchmark::DoNotOptimize(cs.c().data());
  }
  set_counters(state, layout.num_constraints(), core_seconds() - c0);
}

void bm_synthesis(benchmark::State& state, const std::string& size) {
  const auto shape = shape_for(size);
  const circuits::porep_circuit circuit(shape, circuits::random_porep_witness(shape, 1));
  const auto layout = circuits::porep_layout_t::measure(circuit);
  reset_peak_rss();
  const double c0 = core_seconds();
  for (auto _ : state) {
    auto w = circuits::synthesize_porep_witness(circuit, layout);
    benchmark::DoNotOptimize(w.c.data());
  }
  set_counters(state, layout.num_constraints(), core_seconds() - c0);
}

// The compiled path (what cuzk prove and the engine run): the matrices are
// compiled once outside the timed loop, as porep_synthesizer_t caches them.
void bm_compiled(benchmark::State& state, const std::string& size) {
  const auto shape = shape_for(size);
  const circuits::porep_circuit circuit(shape, circuits::random_porep_witness(shape, 1));
  const auto compiled = circuits::porep_compiled_t::compile(circuit, circuits::porep_layout_t::measure(circuit));
  state.counters["compiled_MiB"] = double(compiled.bytes()) / double(1 << 20);
  reset_peak_rss();
  const double c0 = core_seconds();
  for (auto _ : state) {
    auto w = circuits::synthesize_porep_compiled(circuit, compiled);
    benchmark::DoNotOptimize(w.c.data());
  }
  set_counters(state, compiled.layout().num_constraints(), core_seconds() - c0);
}

// Registered by name so that `/32GiB` can be selected alone; the 32 and 64 GiB
// witness cases need about 16 GiB and are meant for the 16-core GPU machine.
const int registered = [] {
  for (const char* s : {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"}) {
    const std::string size = s;
    benchmark::RegisterBenchmark(("bm_porep_shape/" + size).c_str(), bm_shape, size)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("bm_porep_layout/" + size).c_str(), bm_layout, size)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("bm_porep_witness_cs/" + size).c_str(), bm_witness_cs, size)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
    benchmark::RegisterBenchmark(("bm_porep_synthesis/" + size).c_str(), bm_synthesis, size)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
    benchmark::RegisterBenchmark(("bm_porep_compiled/" + size).c_str(), bm_compiled, size)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(2);
  }
  return 0;
}();

}  // namespace
