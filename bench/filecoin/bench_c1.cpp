// Reading a sector's C1 output (issue 15): the bare SealCommitPhase1Output
// JSON and Curio's base64 envelope of it, parsed (one thread) and every value
// checked (the challenges in parallel), per sector size. Filter by name, e.g.
//   cuzk_bench --benchmark_filter='bm_c1_read/32GiB'
// Counters: MB = the input's size; peak_x = the rise of the kernel's VmHWM
// during the read over the input's size (the input itself is resident before
// the mark is reset, so this is what parsing adds per input byte).
#include <benchmark/benchmark.h>

#include "engine/process_memory_t.hpp"
#include "filecoin/c1_json.hpp"
#include "filecoin/curio_envelope.hpp"
#include "filecoin/porep_input.hpp"
#include "porep/vanilla_generator.hpp"

using namespace cuzk;

namespace {

constexpr std::uint64_t gib = std::uint64_t(1) << 30;

std::string c1_text(std::uint64_t sector_bytes, bool envelope) {
  const auto& rp = filecoin::seal_proof_for(sector_bytes, filecoin::seal_version_t::v1_1);
  auto v = porep::generate_vanilla(rp.sector_params(), 1);
  const std::string c1 = filecoin::write_c1_json(filecoin::make_c1_output(rp, std::move(v)));
  if (!envelope) return c1;
  return filecoin::write_curio_envelope(1, sector_bytes,
                                        {reinterpret_cast<const std::uint8_t*>(c1.data()), c1.size()});
}

void bm_c1_read(benchmark::State& state, std::uint64_t sector_bytes, bool envelope) {
  const std::string text = c1_text(sector_bytes, envelope);
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  std::uint64_t rise = 0;
  for (auto _ : state) {
    engine::reset_peak_rss();
    const auto before = engine::read_process_memory().rss_bytes;
    auto in = filecoin::read_porep_input(bytes);
    benchmark::DoNotOptimize(in.vanilla.comm_r);
    // The kernel's RSS counters are per thread and synced lazily: with the
    // checks on TBB threads the high-water mark can read below `before`.
    const auto peak = engine::read_process_memory().peak_rss_bytes;
    rise = std::max(rise, peak > before ? peak - before : 0);
  }
  state.counters["MB"] = double(text.size()) / 1e6;
  state.counters["peak_x"] = double(rise) / double(text.size());
}

}  // namespace

BENCHMARK_CAPTURE(bm_c1_read, 32GiB_c1, 32 * gib, false)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(bm_c1_read, 32GiB_curio, 32 * gib, true)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(bm_c1_read, 64GiB_curio, 64 * gib, true)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(bm_c1_read, 2KiB_curio, 2048, true)->Unit(benchmark::kMillisecond);
