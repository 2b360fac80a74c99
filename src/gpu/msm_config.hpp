#pragma once
// Knobs of the GPU MSM for tests and benchmarks; zeros pick the defaults
// (msm_plan::make), which are what production should use.
#include <cstddef>
#include <cstdint>

namespace cuzk::gpu {

struct msm_config {
  uint32_t window_bits = 0;  // 0: cost model over the count of scalars other than 0 and 1
  size_t chunk = 0;          // sorted entries per accumulation thread; 0: ~2^17 threads
};

}  // namespace cuzk::gpu
