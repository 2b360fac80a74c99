#pragma once
// Which pipeline stage a gauge_t counts.
#include <cstdint>

namespace cuzk::engine {

enum class gauge_kind_t : uint8_t { none, synthesizing, queued, on_gpu, pending_finalize };

}  // namespace cuzk::engine
