#pragma once
// Engine-internal: one partition moving through the pipeline. It owns
// everything it holds (budget reservation, gauge place, witness, pending
// proof), so dropping it on any path returns all of it. Member order matters:
// `retire` is declared first so it runs last, after the reservation and the
// gauge are already back (drain waits on it).
#include <cstdint>
#include <memory>
#include <optional>

#include "engine/gauge_t.hpp"
#include "engine/job_state_t.hpp"
#include "engine/prove_backend_t.hpp"
#include "engine/reservation_t.hpp"
#include "engine/scope_token_t.hpp"
#include "engine/work_key_t.hpp"

namespace cuzk::engine {

struct partition_work_t {
  scope_token_t retire;
  std::shared_ptr<job_state_t> job;
  uint32_t index = 0;
  uint32_t attempt = 0;          // failed attempts so far
  uint64_t failed_devices = 0;   // bit d: an attempt failed on backend device d
  std::shared_ptr<param_entry_t> params;
  reservation_t reservation;
  partition_footprint_t footprint;  // what the reservation was sized for (the backend's or the fallback's)
  // The witness buffers the engine's buffer_pool_t promised at dispatch
  // (token 0: none); those synthesis did not take are freed when
  // pool_promise is reset or dropped, before the reservation that paid for them.
  uint64_t pool_token = 0;
  scope_token_t pool_promise;
  gauge_t gauge;
  std::optional<r1cs::witness_cs> witness;
  std::optional<groth16::pending_proof_t> pending;
  std::shared_ptr<prove_backend_t> backend;  // the one that ran prove_start; finalize uses it too
  uint32_t device = 0;
  steady_clock::time_point queued_at;

  work_key_t key() const {
    return {4 - static_cast<uint32_t>(job->priority), job->seq, index};
  }
};

}  // namespace cuzk::engine
