#pragma once
// CUDA_OK(expr): every runtime call is checked; a failure throws with the
// expression, where it was written and CUDA's own description.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace cuzk::gpu {

[[noreturn]] inline void cuda_fail(cudaError_t e, const char* expr, const char* file, int line) {
  throw std::runtime_error(std::string("CUDA error: ") + expr + " at " + file + ":" + std::to_string(line) + ": " +
                           cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

}  // namespace cuzk::gpu

#define CUDA_OK(expr)                                                              \
  do {                                                                             \
    cudaError_t cuzk_cuda_err_ = (expr);                                           \
    if (cuzk_cuda_err_ != cudaSuccess) ::cuzk::gpu::cuda_fail(cuzk_cuda_err_, #expr, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: configuration errors surface at once, faults at the next sync.
#define CUDA_LAUNCH_OK() CUDA_OK(cudaGetLastError())
