#pragma once
// Which GPUs this build can use. Plain C++ (no CUDA types): tests and the
// engine call it to decide between the CUDA and CPU backends.
namespace cuzk::gpu {

// Number of CUDA devices of compute capability >= 9.0 (the kernels are built
// for sm_90a); 0 when there is no driver, no device, or the build has no CUDA.
int device_count();

}  // namespace cuzk::gpu
