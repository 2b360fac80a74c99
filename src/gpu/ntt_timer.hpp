#pragma once
// Device-resident NTT timings for benchmarks: buffers of 2^log_n random Fr
// values are created on the GPU once, and each call times one operation on
// them with CUDA events (kernels only, no PCIe). Plain C++ interface.
#include <cstdint>
#include <memory>

#include "gpu/ntt.hpp"

namespace cuzk::gpu {

class ntt_timer {
 public:
  // buffers: how many arrays of 2^log_n to hold (compute_h needs 3).
  explicit ntt_timer(uint32_t log_n, int buffers = 1);
  ~ntt_timer();
  ntt_timer(const ntt_timer&) = delete;
  ntt_timer& operator=(const ntt_timer&) = delete;

  // Milliseconds of device time for one call.
  double ntt_ms(ntt_dir dir, bool coset, ntt_config cfg = {});  // natural order in and out
  double nr_passes_ms(ntt_dir dir, ntt_config cfg = {});        // DIF passes only, bit-reversed out
  double bit_reverse_ms();
  double compute_h_ms(ntt_config cfg = {});

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace cuzk::gpu
