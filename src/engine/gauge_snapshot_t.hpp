#pragma once
// The five pipeline gauges (DESIGN.md 4, point 3). Each is the sum of live
// RAII holders, so all five read zero whenever the engine is idle.
#include <cstdint>

namespace cuzk::engine {

struct gauge_snapshot_t {
  int64_t synthesizing = 0;      // partitions in witness synthesis
  int64_t queued = 0;            // synthesized, waiting for a prove worker
  int64_t on_gpu = 0;            // inside prove_start
  int64_t pending_finalize = 0;  // prove_start done, waiting for or in finalize
  int64_t bytes_reserved = 0;    // memory budget held by partitions
  int64_t params_bytes = 0;      // memory budget held by loaded parameters (not a gauge:
                                 // it stays while parameters are cached)

  bool operator==(const gauge_snapshot_t&) const = default;
};

}  // namespace cuzk::engine
