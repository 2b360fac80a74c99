// PoRep partition synthesis (issue 4 part 5): shape counting, the plain
// sequential witness mode (r1cs::witness_cs, reserved from the shape) and the
// fast slot-parallel path, per sector size. Filter by name, e.g.
//   cuzk_bench --benchmark_filter='bm_porep_synthesis/32GiB'
//   cuzk_bench --benchmark_filter='bm_porep_shape/32GiB'
// and the fallback PoSt partitions' compiled path (bm_post_compiled/window/32GiB:
// 2349 sparse synthetic sectors, generated outside the timed loop); the
// compact witness: bm_porep_compact/<size> (bm_porep_compact_late/<size>: packed
// after a full-width assignment, as before), bm_post_compact/window/32GiB.
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

#include <algorithm>

#include <bit>
#include <chrono>
#include <functional>
#include <random>
#include <string>

#include "circuits/porep_circuit.hpp"
#include "circuits/porep_compiled_t.hpp"
#include "circuits/porep_layout_t.hpp"
#include "circuits/porep_random_witness.hpp"
#include "circuits/porep_synthesis.hpp"
#include "circuits/post_synthesis.hpp"
#include "porep/post_challenges.hpp"
#include "porep/post_shape.hpp"
#include "porep/post_vanilla.hpp"
#include "engine/process_memory_t.hpp"
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

circuits::porep_circuit_shape_t shape_for(const std::string& size) {
  return circuits::porep_circuit_shape_t::for_sector(porep::sector_params_for(porep::parse_sector_size(size)));
}

void set_counters(benchmark::State& state, size_t rows, double core_s) {
  const double it = double(state.iterations());
  state.counters["constraints"] = double(rows);
  state.counters["core_s"] = core_s / it;
  state.counters["peak_GiB"] = double(engine::read_process_memory().peak_rss_bytes) / double(1 << 30);
  state.counters["rows/s/core"] = double(rows) * it / core_s;
}

// One witness per iteration from `synthesize_once`, timed in core-seconds
// and peak RSS from a reset mark.
template <class F>
void time_witnesses(benchmark::State& state, size_t rows, F&& synthesize_once) {
  engine::reset_peak_rss();
  const double c0 = core_seconds();
  for (auto _ : state) synthesize_once();
  set_counters(state, rows, core_seconds() - c0);
}

void bm_shape(benchmark::State& state, const std::string& size) {
  const circuits::porep_circuit circuit(shape_for(size));
  size_t rows = 0;
  engine::reset_peak_rss();
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
  time_witnesses(state, layout.num_constraints(), [&] {
    r1cs::witness_cs cs;
    cs.reserve({layout.num_constraints(), layout.num_inputs(), layout.num_aux()});
    circuit.synthesize(cs);
    cs.add_input_constraints();
    benchmark::DoNotOptimize(cs.c().data());
  });
}

void bm_synthesis(benchmark::State& state, const std::string& size) {
  const auto shape = shape_for(size);
  const circuits::porep_circuit circuit(shape, circuits::random_porep_witness(shape, 1));
  const auto layout = circuits::porep_layout_t::measure(circuit);
  time_witnesses(state, layout.num_constraints(), [&] {
    auto w = circuits::synthesize_porep_witness(circuit, layout);
    benchmark::DoNotOptimize(w.c.data());
  });
}

// The compiled path (what cuzk prove and the engine run): the matrices are
// compiled once outside the timed loop, as porep_synthesizer_t caches them.
void bm_compiled(benchmark::State& state, const std::string& size) {
  const auto shape = shape_for(size);
  const circuits::porep_circuit circuit(shape, circuits::random_porep_witness(shape, 1));
  const auto compiled = circuits::porep_compiled_t::compile(circuit, circuits::porep_layout_t::measure(circuit));
  state.counters["compiled_MiB"] = double(compiled.bytes()) / double(1 << 20);
  time_witnesses(state, compiled.layout().num_constraints(), [&] {
    auto w = circuits::synthesize_porep_compiled(circuit, compiled);
    benchmark::DoNotOptimize(w.c.data());
  });
}

// The compact witness (issue 18): values assigned and packed per iteration
// (the timed work and its core_s), then the rows formed from the packed
// assignment as prove_start does (rows_ms, rows_core_s; outside the timed
// loop). held_MiB is what the witness holds between the two, eager_MiB what
// the eager path holds (a, b, c to the domain and the assignment), wide_pct
// the share of aux values other than 0 and 1, synth_peak_MiB how far the
// process's peak RSS rose above its RSS before synthesis, during it.
void time_compact(benchmark::State& state, std::size_t rows, const std::function<r1cs::witness_cs()>& synthesize) {
  double synth_core = 0, rows_core = 0, rows_wall = 0, synth_peak = 0;
  for (auto _ : state) {
    engine::reset_peak_rss();
    const uint64_t before = engine::read_process_memory().rss_bytes;
    const double c0 = core_seconds();
    r1cs::witness_cs w = synthesize();
    synth_core += core_seconds() - c0;
    state.PauseTiming();
    const uint64_t peak = engine::read_process_memory().peak_rss_bytes;
    synth_peak = std::max(synth_peak, double(peak > before ? peak - before : 0));
    const auto& aux = w.compact_aux();
    const std::size_t domain = std::bit_ceil(rows);
    state.counters["held_MiB"] = double(w.bytes()) / double(1 << 20);
    state.counters["eager_MiB"] = double(32 * (3 * domain + w.num_inputs() + w.num_aux())) / double(1 << 20);
    state.counters["wide_pct"] = 100.0 * double(aux.wide_count()) / double(std::max<std::size_t>(aux.size(), 1));
    const double c1 = core_seconds();
    const auto t1 = std::chrono::steady_clock::now();
    w.materialize();
    rows_wall += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
    rows_core += core_seconds() - c1;
    benchmark::DoNotOptimize(w.c().data());
    state.ResumeTiming();
  }
  const double it = double(state.iterations());
  state.counters["constraints"] = double(rows);
  state.counters["core_s"] = synth_core / it;
  state.counters["rows_ms"] = rows_wall / it;
  state.counters["rows_core_s"] = rows_core / it;
  state.counters["synth_peak_MiB"] = synth_peak / double(1 << 20);
}

// packed_late: the aux assigned at full width and packed afterwards (the
// path before compact_builder_t, kept for comparison: bm_porep_compact_late).
void bm_compact(benchmark::State& state, const std::string& size, bool packed_late) {
  const auto shape = shape_for(size);
  const circuits::porep_circuit circuit(shape, circuits::random_porep_witness(shape, 1));
  const auto compiled = std::make_shared<const circuits::porep_compiled_t>(
      circuits::porep_compiled_t::compile(circuit, circuits::porep_layout_t::measure(circuit)));
  time_compact(state, compiled->layout().num_constraints(), [&] {
    return circuits::into_deferred_witness(circuits::assign_porep_compiled(circuit, *compiled, !packed_late), compiled);
  });
}

// porep_compiled_t::wide_aux_bound over the compiled rows (once per sector size).
void bm_wide_bound(benchmark::State& state, const std::string& size) {
  const auto shape = shape_for(size);
  const circuits::porep_circuit circuit(shape);
  const auto compiled = circuits::porep_compiled_t::compile(circuit, circuits::porep_layout_t::measure(circuit));
  std::size_t bound = 0;
  for (auto _ : state) bound = compiled.wide_aux_bound();
  state.counters["aux"] = double(compiled.layout().num_aux());
  state.counters["wide_bound"] = double(bound);
  state.counters["wide_pct"] = 100.0 * double(bound) / double(compiled.layout().num_aux());
}

// One PoSt partition of synthetic sectors (sparse trees above 8 MiB) with
// their derived challenges: a full Window partition, or Winning's one sector.
void bm_post_compiled(benchmark::State& state, porep::post_kind_t kind, const std::string& size, bool compact) {
  const auto shape = porep::post_shape_for(kind, porep::parse_sector_size(size));
  porep::bytes32_t randomness{};
  randomness[0] = 7;
  std::vector<std::uint64_t> ids(shape.sectors_per_partition);
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = 1000 + i;
  auto sectors = porep::generate_post_partition(shape, porep::api_version_t::v1_1, randomness, 0, ids, 1);
  const circuits::post_circuit circuit(shape,
                                       std::make_shared<const circuits::post_circuit::witness_t>(std::move(sectors)));
  const auto compiled = circuits::compiled_post_for(circuit);
  state.counters["compiled_MiB"] = double(compiled->bytes()) / double(1 << 20);
  if (compact) {
    time_compact(state, compiled->layout().num_constraints(), [&] {
      return circuits::into_deferred_witness(circuits::assign_post_compiled(circuit, *compiled, true), compiled);
    });
    return;
  }
  time_witnesses(state, compiled->layout().num_constraints(), [&] {
    auto w = circuits::synthesize_post_compiled(circuit, *compiled);
    benchmark::DoNotOptimize(w.c.data());
  });
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
    benchmark::RegisterBenchmark(("bm_porep_wide_bound/" + size).c_str(), bm_wide_bound, size)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
    for (const bool late : {false, true}) {
      benchmark::RegisterBenchmark(((late ? "bm_porep_compact_late/" : "bm_porep_compact/") + size).c_str(),
                                   bm_compact, size, late)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime()
          ->Iterations(2);
    }
  }
  for (const char* s : {"2KiB", "32GiB"}) {
    for (const auto kind : {porep::post_kind_t::window, porep::post_kind_t::winning}) {
      for (const bool compact : {false, true}) {
        const std::string name = std::string(compact ? "bm_post_compact/" : "bm_post_compiled/") +
                                 porep::to_string(kind) + "/" + s;
        benchmark::RegisterBenchmark(name.c_str(), bm_post_compiled, kind, std::string(s), compact)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->Iterations(2);
      }
    }
  }
  return 0;
}();

}  // namespace
