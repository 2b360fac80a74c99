#pragma once
// Engine-internal: everything known about one submitted job. Immutable fields
// are set at submit; the rest is guarded by the engine's jobs mutex, except
// `halted`, which stages read without the lock to drop a cancelled or failed
// job's partitions at their next boundary.
#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "circuits/any_circuit.hpp"
#include "engine/job_status_t.hpp"
#include "engine/param_entry_t.hpp"
#include "engine/partition_footprint_t.hpp"
#include "engine/priority_t.hpp"
#include "engine/proof_kind_t.hpp"
#include "groth16/proof_t.hpp"

namespace cuzk::engine {

using steady_clock = std::chrono::steady_clock;

struct timeline_event_t {
  std::string stage;  // synthesis, queue, prove_start, finalize, verify
  uint64_t start_ms = 0, end_ms = 0;  // since submit
  uint32_t attempt = 0;
  std::string where;  // worker / device
};

struct job_state_t {
  // Set at submit.
  std::string id;
  uint64_t seq = 0;
  proof_kind_t kind = proof_kind_t::unspecified;
  priority_t priority = priority_t::normal;
  std::string circuit_id;
  std::vector<std::shared_ptr<const circuits::any_circuit>> circuits;  // one per partition
  r1cs::shape_counts_t shape;
  partition_footprint_t footprint;           // on the backend (prove_backend_t::footprint)
  partition_footprint_t fallback_footprint;  // on the fallback backend, for partitions every device failed
  bool want_timeline = false;
  steady_clock::time_point submitted;
  // Hash of what the request asks to prove (engine.cpp request_digest): a
  // resubmitted request_id attaches only when this matches.
  uint64_t request_digest = 0;

  std::atomic<bool> halted{false};

  // Guarded by the engine's jobs mutex.
  std::shared_ptr<param_entry_t> params;
  job_status_t status = job_status_t::unknown;
  std::string error;
  std::vector<std::optional<std::array<uint8_t, groth16::proof_size>>> proofs;
  uint32_t done = 0, retries = 0, live = 0;
  bool started = false;
  std::optional<steady_clock::time_point> first_synthesis;
  steady_clock::time_point finished;
  uint64_t synthesis_ms = 0, gpu_ms = 0, srs_load_ms = 0;
  std::vector<std::vector<timeline_event_t>> timeline;  // per partition, when wanted

  uint32_t partitions() const { return uint32_t(circuits.size()); }
  uint64_t ms_since_submit(steady_clock::time_point t) const {
    return uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(t - submitted).count());
  }
};

}  // namespace cuzk::engine
