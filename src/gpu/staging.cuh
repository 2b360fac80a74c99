#pragma once
// Host -> device copies of pageable host memory at pinned-memory speed: the
// source goes through two pinned buffers (from a pool) in chunks;
// host threads (TBB) fill one buffer while the copy engine moves the other,
// so the host copy and the PCIe transfer overlap. A plain cudaMemcpyAsync
// from pageable memory is staged by the driver one piece at a time instead.
// The copy is queued on `s` (kernels queued after it see the data); the call
// returns once the last chunk is queued, and the source may be freed then.
#include <cuda_runtime.h>

#include <cstddef>

namespace cuzk::gpu {

void upload_staged(void* dst, const void* src, size_t bytes, cudaStream_t s);

}  // namespace cuzk::gpu
