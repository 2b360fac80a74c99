#pragma once
// Order of partitions in every engine queue: higher priority first, then the
// older job, then the lower partition index.
#include <compare>
#include <cstdint>

namespace cuzk::engine {

struct work_key_t {
  uint32_t inverse_priority = 0;  // 4 - priority, so critical sorts first
  uint64_t job_seq = 0;
  uint32_t partition = 0;

  auto operator<=>(const work_key_t&) const = default;
};

}  // namespace cuzk::engine
