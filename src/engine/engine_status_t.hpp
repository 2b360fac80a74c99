#pragma once
// A consistent-enough snapshot for GetStatus, /status and `cuzk bench`.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/gauge_snapshot_t.hpp"

namespace cuzk::engine {

struct worker_status_t {
  uint32_t worker_id = 0;
  uint32_t device = 0;
  std::string backend;     // "cpu", "cuda", ...
  bool busy = false;
  std::string job_id;      // empty when idle
  std::string proof_kind;  // proof_kind_name, empty when idle
  uint32_t partition = 0;
  // The device as the backend describes it (prove_backend_t::describe):
  // GPU name and memory; memory 0 = not known.
  std::string device_name;
  uint64_t memory_total = 0, memory_free = 0;
};

struct loaded_params_t {
  std::string circuit_id;
  uint64_t bytes = 0;  // charged to the budget while loaded
  uint64_t host_released = 0;  // of those, points the backend freed from host memory (it holds them itself)
  uint64_t load_ms = 0;
  double idle_s = 0;   // since last use
  uint32_t in_use = 0; // partitions holding them now
};

struct queue_status_t {
  std::string proof_kind;  // proof_kind_name
  uint32_t pending = 0;      // jobs none of whose partitions has started
  uint32_t in_progress = 0;  // jobs with partitions in the pipeline
};

struct engine_status_t {
  std::vector<worker_status_t> workers;  // one per prove worker
  std::vector<loaded_params_t> loaded_params;
  std::vector<queue_status_t> queues;    // only kinds with jobs
  uint64_t completed = 0, failed = 0, cancelled = 0;
  uint32_t queue_depth = 0;              // jobs in the scheduler
  double uptime_s = 0;
  uint64_t budget_total = 0, budget_reserved = 0;
  uint64_t budget_critical_reserve = 0;  // of budget_total, kept for critical (WinningPoSt) partitions
  // Witness buffers kept for later partitions (prove_backend_t::pools_witness):
  // bytes idle in the pool and paid from the budget (part of budget_reserved),
  // and buffers synthesis got back from it so far.
  uint64_t witness_pool_bytes = 0, witness_pool_hits = 0;
  gauge_snapshot_t gauges;
  uint64_t peak_rss_bytes = 0;           // VmHWM
  uint64_t rss_bytes = 0;                // VmRSS
  double process_cpu_seconds = 0;        // user + system CPU of the whole process so far (getrusage)
  uint32_t cpu_cores = 0;                // cores this process may run on (sched_getaffinity)
  uint32_t synthesis_workers = 0, prove_workers = 0, gpu_queue_capacity = 0;
  uint32_t gpu_queue_depth = 0, gpu_queue_peak = 0;  // synthesized partitions waiting for a prove worker
};

}  // namespace cuzk::engine
