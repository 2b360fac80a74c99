#pragma once
#include <cstdint>
#include <string>

namespace cuzk::engine {

struct submit_result_t {
  std::string job_id;
  uint32_t queue_position = 0;  // jobs waiting in the scheduler before this one (0-based)
};

}  // namespace cuzk::engine
