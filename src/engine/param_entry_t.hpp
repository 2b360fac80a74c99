#pragma once
// One loaded parameter set: the points, the prepared verifying key, and the
// budget bytes they hold until evicted and no partition uses them any more.
#include <atomic>
#include <chrono>
#include <memory>
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
  std::atomic<std::chrono::steady_clock::rep> last_used{0};

  void touch() { last_used = std::chrono::steady_clock::now().time_since_epoch().count(); }
};

}  // namespace cuzk::engine
