#pragma once
// Shape of the GPU NTT's passes. Each pass loads a tile of 2^tile_log
// elements into shared memory (32 bytes each) and runs up to tile_log
// butterfly levels there; threads per block share the tile's butterflies.
// Supported (tile_log, threads): (10, 256), (11, 256), (11, 512), (12, 512), (12, 1024).
// (11, 256) was the fastest on an H200 at 2^24 and 2^27 (bench/gpu/NOTES.md).
#include <cstdint>

namespace cuzk::gpu {

struct ntt_config {
  uint32_t tile_log = 11;
  uint32_t threads = 256;
};

}  // namespace cuzk::gpu
