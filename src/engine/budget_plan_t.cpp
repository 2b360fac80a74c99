#include "engine/budget_plan_t.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>

#include "circuits/post_circuit.hpp"
#include "engine/process_memory_t.hpp"
#include "porep/post_shape.hpp"

namespace cuzk::engine {
namespace {

uint64_t resolve_total(const engine_config_t& c) {
  if (c.total_budget) return c.total_budget;
  uint64_t mem = read_mem_total();
  if (!mem) mem = 256 * gib;  // the Rust daemon's fallback when /proc/meminfo is unreadable
  if (mem <= c.safety_margin) {
    throw std::invalid_argument("memory budget: MemTotal " + std::to_string(mem) + " bytes is not above the safety margin " +
                                std::to_string(c.safety_margin));
  }
  return mem - c.safety_margin;
}

}  // namespace

uint64_t winning_post_reserve() {
  // One sector block in shape mode times 66 (post_circuit::counts), so this
  // costs a block's synthesis, about a millisecond, not a whole circuit's.
  // Computed, not written down: the figure follows the circuit if it changes.
  static const uint64_t bytes = [] {
    const circuits::post_circuit c(porep::post_shape_for(porep::post_kind_t::winning, 64 * gib));
    const auto n = c.counts();
    // The prover adds one row per public input (shape_cs::add_input_constraints).
    const r1cs::shape_counts_t shape{n.num_constraints + n.num_inputs, n.num_inputs, n.num_aux};
    return std::max(partition_footprint(shape).full(), gpu_partition_footprint(shape).full());
  }();
  return bytes;
}

uint64_t clamp_critical_reserve(uint64_t reserve, uint64_t total) { return std::min(reserve, total / 8); }

budget_plan_t plan_budget(const engine_config_t& c, uint32_t backend_devices) {
  budget_plan_t p;
  p.total = resolve_total(c);
  p.critical_reserve = clamp_critical_reserve(c.critical_reserve ? *c.critical_reserve : winning_post_reserve(), p.total);
  if (c.devices.empty()) {
    for (uint32_t d = 0; d < backend_devices; ++d) p.devices.push_back(d);
  } else {
    for (uint32_t d : c.devices) {
      if (d >= backend_devices) {
        throw std::invalid_argument("device " + std::to_string(d) + " does not exist (the backend has " +
                                    std::to_string(backend_devices) + ")");
      }
      p.devices.push_back(d);
    }
  }
  if (p.devices.empty()) throw std::invalid_argument("no devices to prove on");
  if (c.gpu_workers_per_device == 0) throw std::invalid_argument("gpu_workers_per_device must be at least 1");
  if (c.queue_depth_per_worker == 0) throw std::invalid_argument("queue_depth_per_worker must be at least 1");
  if (c.max_attempts == 0) throw std::invalid_argument("max_attempts must be at least 1");
  const uint32_t hw = std::max(1u, std::thread::hardware_concurrency());
  p.synthesis_workers = c.synthesis_threads ? c.synthesis_threads : hw;
  p.prove_workers = uint32_t(p.devices.size()) * c.gpu_workers_per_device;
  // Not counted in the GPU queue's capacity: they never take what fills it.
  p.critical_workers = uint32_t(p.devices.size()) * c.critical_workers_per_device;
  p.gpu_queue_capacity = p.prove_workers * c.queue_depth_per_worker;
  p.finalizer_threads = c.finalizer_threads ? c.finalizer_threads : 1;
  return p;
}

uint64_t partitions_in_flight(uint64_t total, uint64_t params_bytes, const partition_footprint_t& f) {
  if (params_bytes >= total || f.full() == 0) return 0;
  return (total - params_bytes) / f.full();
}

}  // namespace cuzk::engine
