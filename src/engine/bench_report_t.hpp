#pragma once
// In-process batch runs for `cuzk bench` and benchmarks: the numbers
// cuzk-bench's `batch` prints (CUZK_API.md 6), plus the peak RSS the kernel saw.
#include <cstdint>
#include <vector>

#include "engine/job_result_t.hpp"

namespace cuzk::engine {

struct bench_report_t {
  uint32_t count = 0, concurrency = 0;
  uint32_t completed = 0, failed = 0;
  double elapsed_s = 0;
  double proofs_per_min = 0;  // completed * 60 / elapsed
  double s_per_proof = 0;     // elapsed / completed
  double wall_avg_ms = 0, wall_min_ms = 0, wall_max_ms = 0;     // submit to result, per proof
  double prove_avg_ms = 0, prove_min_ms = 0, prove_max_ms = 0;  // gpu_ms per proof
  uint64_t peak_rss_bytes = 0;  // VmHWM at the end
  std::vector<job_result_t> results;  // in submission order
};

}  // namespace cuzk::engine
