#pragma once
#include <cstdint>
#include <string>

namespace cuzk::engine {

struct submit_result_t {
  std::string job_id;
  uint32_t queue_position = 0;  // jobs waiting in the scheduler before this one (0-based)
  // The request_id named a job already accepted with the same request, still
  // running or completed within the retention time: no new job was made, and
  // await(job_id) returns that job's result (engine_t::submit).
  bool attached = false;
};

}  // namespace cuzk::engine
