#pragma once
// How the engine sizes itself from one memory number (DESIGN.md 4, CUZK_API.md 4.3).
// Threads are cheap; memory is what runs out. So thread counts only say how
// much work *may* run at once, and the byte budget decides how much *does*:
// every partition reserves its full footprint before synthesis, so at most
// partitions_in_flight(...) of them exist whatever the thread counts are.
#include <cstdint>
#include <vector>

#include "engine/engine_config_t.hpp"
#include "engine/partition_footprint_t.hpp"

namespace cuzk::engine {

struct budget_plan_t {
  uint64_t total = 0;                  // bytes
  uint64_t critical_reserve = 0;       // of total, for critical partitions only (engine_config_t, clamped)
  std::vector<uint32_t> devices;       // backend device indices in use
  uint32_t synthesis_workers = 0;
  uint32_t prove_workers = 0;          // devices * gpu_workers_per_device
  uint32_t critical_workers = 0;       // devices * critical_workers_per_device, beside prove_workers
  uint32_t gpu_queue_capacity = 0;     // prove_workers * queue_depth_per_worker
  uint32_t finalizer_threads = 0;
};

// Throws std::invalid_argument for a device the backend does not have or a
// zero worker count. total_budget 0 = MemTotal - safety_margin.
budget_plan_t plan_budget(const engine_config_t& config, uint32_t backend_devices);

// The auto critical reserve: the larger footprint (CPU or GPU backend) of
// one 64 GiB WinningPoSt partition, the largest WinningPoSt there is.
uint64_t winning_post_reserve();

// What a configured reserve becomes on a budget of `total` bytes: at most an
// eighth of it, so sealing work keeps the rest even on a small machine.
uint64_t clamp_critical_reserve(uint64_t reserve, uint64_t total);

// Partitions of this footprint that fit beside parameters of params_bytes;
// 0 means a job of them can never run.
uint64_t partitions_in_flight(uint64_t total, uint64_t params_bytes, const partition_footprint_t& f);

}  // namespace cuzk::engine
