#pragma once
// Final state of a job; numbers mirror AwaitProofResponse.Status.
#include <cstdint>
#include <string_view>

namespace cuzk::engine {

enum class job_status_t : uint32_t {
  unknown = 0,  // not finished yet (only in status snapshots)
  completed = 1,
  failed = 2,
  cancelled = 3,
  timeout = 4,  // await() gave up waiting; the job itself keeps running
};

std::string_view job_status_name(job_status_t s);

}  // namespace cuzk::engine
