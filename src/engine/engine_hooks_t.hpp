#pragma once
// What an embedder (tests, bench, the GPU build) may plug into an engine.
#include <functional>
#include <memory>
#include <string_view>

#include "engine/gauge_snapshot_t.hpp"
#include "engine/prove_backend_t.hpp"

namespace cuzk::engine {

struct engine_hooks_t {
  // Proves partitions; null = the CPU backend.
  std::shared_ptr<prove_backend_t> backend;
  // Takes a partition whose attempts failed on every device of `backend`;
  // null = the CPU backend.
  std::shared_ptr<prove_backend_t> fallback;
  // Called at every gauge or budget transition with the event name
  // ("reserve", "synth_start", ...) and the values right after it, under the
  // gauge lock (keep it cheap; tests use it to check invariants).
  std::function<void(std::string_view event, const gauge_snapshot_t&)> on_transition;
};

}  // namespace cuzk::engine
