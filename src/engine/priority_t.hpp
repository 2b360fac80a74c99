#pragma once
// Job priority; numbers mirror cuzk.v1.Priority. Higher runs first, FIFO within one.
#include <cstdint>
#include <string_view>

#include "engine/proof_kind_t.hpp"

namespace cuzk::engine {

enum class priority_t : uint32_t {
  unspecified = 0,
  low = 1,
  normal = 2,
  high = 3,
  critical = 4,
};

// Rust server's defaults (types.rs): Winning -> critical, Window -> high,
// PoRep, Snap and our circuits -> normal. Values outside 1..4 become normal.
priority_t effective_priority(priority_t requested, proof_kind_t kind);

// The default priority of the jobs that prove with parameters `circuit_id`
// (engine_t::post_circuit_id's spellings): "winning-*" critical, "wpost-*"
// high, every other id normal. Ranks parameter sets for the GPU residency.
priority_t circuit_priority(std::string_view circuit_id);

}  // namespace cuzk::engine
