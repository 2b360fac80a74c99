#pragma once
// What await() returns (AwaitProofResponse). Times are 0 unless completed;
// synthesis_ms and gpu_ms are sums over partitions, queue_wait_ms is the time
// from submit until the first partition started synthesis.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/job_status_t.hpp"

namespace cuzk::engine {

struct job_result_t {
  std::string job_id;
  job_status_t status = job_status_t::unknown;
  std::vector<uint8_t> proof;  // 192 bytes per partition, in partition order
  std::string error_message;   // set when failed or cancelled
  uint64_t queue_wait_ms = 0;
  uint64_t srs_load_ms = 0;
  uint64_t synthesis_ms = 0;
  uint64_t gpu_ms = 0;  // prove_start time summed over partitions
  uint64_t total_ms = 0;
  uint32_t partitions = 0;
  uint32_t retries = 0;  // partition attempts that failed and were retried
};

}  // namespace cuzk::engine
