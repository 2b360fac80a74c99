#pragma once
// One loaded parameter set: the points, the prepared verifying key, and the
// budget bytes they hold until evicted and no partition uses them any more.
// When the last holder lets go, on_drop tells the backend to free what it
// keeps for them (device-resident bases).
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "engine/reservation_t.hpp"
#include "groth16/parameters_t.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::engine {

struct param_entry_t {
  std::string circuit_id;
  std::shared_ptr<const groth16::parameters_t> params;
  std::unique_ptr<groth16::prepared_vk_t> pvk;
  reservation_t reservation;
  uint64_t bytes = 0;
  uint64_t load_ms = 0;
  bool from_file = false;  // only these are evicted to make room: they can be loaded again
  // From a file (or registered with a way to read them again): the same
  // object as params, writable until the entry is published, so the backend
  // may free the points it holds itself (prove_backend_t::release_host_copy).
  // Null otherwise.
  std::shared_ptr<groth16::parameters_t> releasable;
  std::function<groth16::parameters_t()> reload;  // the complete parameters again (the file read again)
  // Bytes of points freed that way. The budget charge stays whole: a
  // partition that falls back to the CPU reloads them within it
  // (param_store_t::complete).
  uint64_t host_released = 0;
  // Read query by query (issue 18): host_released counts the queries the
  // backend read from the file itself, never held here, and the charge
  // holds only the rest; a CPU fallback's reload then reserves the whole
  // set (full_bytes) for itself.
  bool streamed = false;
  uint64_t full_bytes = 0;  // the complete set's bytes (parameters_t::bytes())
  std::mutex complete_mu;
  std::shared_ptr<const groth16::parameters_t> complete;  // the file read again, once, for the CPU fallback
  reservation_t complete_reservation;                     // streamed: what `complete` holds
  std::function<void(const groth16::parameters_t&)> on_drop;  // the backend's forget
  std::atomic<std::chrono::steady_clock::rep> last_used{0};

  param_entry_t() = default;
  param_entry_t(const param_entry_t&) = delete;
  param_entry_t& operator=(const param_entry_t&) = delete;
  ~param_entry_t() {
    if (on_drop && params) on_drop(*params);
  }

  void touch() { last_used = std::chrono::steady_clock::now().time_since_epoch().count(); }
};

}  // namespace cuzk::engine
