#pragma once
// Job priority; numbers mirror cuzk.v1.Priority. Higher runs first, FIFO within one.
#include <cstdint>

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

}  // namespace cuzk::engine
