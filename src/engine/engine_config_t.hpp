#pragma once
// Engine configuration: one memory number decides concurrency (DESIGN.md 4);
// the rest says how many threads feed it. Defaults follow CUZK_API.md 3.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::engine {

inline constexpr uint64_t gib = uint64_t(1) << 30;

struct engine_config_t {
  // Bytes the engine may reserve for partitions and parameters. 0 = auto:
  // MemTotal from /proc/meminfo minus safety_margin. An explicit value is used as is.
  uint64_t total_budget = 0;
  uint64_t safety_margin = 5 * gib;
  // Bytes of the budget only critical-priority partitions (WinningPoSt) may
  // use: every other reservation leaves them free (memory_budget_t), so
  // sealing work never fills the room a WinningPoSt needs. nullopt = auto:
  // one 64 GiB WinningPoSt partition's footprint on either backend
  // (budget_plan_t.cpp). 0 here by default, for embedders and tests that
  // size a budget to the byte; the daemon's default is auto. Clamped to an
  // eighth of the budget.
  std::optional<uint64_t> critical_reserve = 0;
  uint32_t synthesis_threads = 0;  // synthesis workers; 0 = hardware threads
  // Whether synthesized witnesses of compiled circuits stay compact until
  // prove_start (r1cs::witness_cs::deferred: the assignment with its 0/1
  // values as bits, a, b, c formed by the prover). automatic = the
  // backend's choice (prove_backend_t::compact_witness): yes on both the
  // CPU backend (rows formed on the host at prove_start) and the GPU backend
  // (rows formed and checked on the device, gpu::form_rows).
  enum class compact_t { automatic, on, off };
  compact_t compact_witness = compact_t::automatic;
  // "on" and "off"; anything else (the callers check "auto") is automatic.
  static compact_t compact_from(std::string_view s) {
    return s == "on" ? compact_t::on : s == "off" ? compact_t::off : compact_t::automatic;
  }
  uint32_t gpu_workers_per_device = 2;
  // Extra prove workers per device that take only critical-priority
  // partitions (WinningPoSt), with high-priority CUDA streams: without one,
  // a WinningPoSt queued behind 32 GiB PoRep partitions waited ~2.5 s on the
  // H200 for a worker to finish its prove_start (1.8-3.6 s). Ordinary
  // workers take critical work too, whichever is free first. 0 = none.
  uint32_t critical_workers_per_device = 1;
  std::vector<uint32_t> devices;   // [] = every device of the backend
  uint32_t finalizer_threads = 2;
  std::string param_cache;         // <param_cache>/<circuit_id>.params, or PoRep's official file (param_store_t.hpp)
  // After a parameter file is loaded and its queries placed on the devices,
  // free the host copy of those the GPU holds itself (prove_backend_t::
  // release_host_copy: ~30 GiB of RSS at 32 GiB PoRep). The budget charge
  // stays, for the CPU fallback's reload of the file.
  bool release_host_params = true;
  // false: parameter files are read without the per-point subgroup checks,
  // whatever their digest (read_parameter_file); for files the operator made.
  bool param_subgroup_checks = true;
  bool verify_proofs = true;       // verify each partition before returning it (F16)
  uint32_t result_retention_s = 600;  // how long await() still finds a finished job
  uint32_t queue_depth_per_worker = 2;  // synthesized partitions waiting per prove worker
  uint32_t max_attempts = 3;       // prove attempts per partition before the job fails
};

}  // namespace cuzk::engine
