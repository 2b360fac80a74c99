#pragma once
// How a transform of 2^log_n points is cut into passes over memory.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace cuzk::gpu {

struct ntt_pass_shape {
  uint32_t lo, k, c;  // butterfly bits [lo, lo+k), batch bits [0, c)

  // Top bits first (DIF order). The lowest pass takes min(log_n, tile_log)
  // contiguous bits; the rest are split evenly into passes of at most
  // tile_log - 2 bits, so every tile keeps >= 4 consecutive elements (128 B
  // runs) and holds 2^tile_log elements. 2^27 at tile_log 11: 8 + 8 + 11.
  static std::vector<ntt_pass_shape> plan(uint32_t log_n, uint32_t tile_log) {
    const uint32_t last_k = std::min(log_n, tile_log);
    const uint32_t rest = log_n - last_k;
    const uint32_t per = tile_log - 2;
    const uint32_t np = (rest + per - 1) / per;
    std::vector<ntt_pass_shape> passes;
    uint32_t top = log_n;
    for (uint32_t i = 0; i < np; ++i) {
      const uint32_t k = rest / np + (i < rest % np ? 1 : 0);
      top -= k;
      passes.push_back({top, k, tile_log - k});
    }
    passes.push_back({0, last_k, 0});
    return passes;
  }
};

}  // namespace cuzk::gpu
