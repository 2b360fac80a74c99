// device_count: a failing driver query means "no usable GPU", never an error.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "gpu/device.hpp"

namespace cuzk::gpu {

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear it so later checks do not see it
    return 0;
  }
  int usable = 0;
  for (int i = 0; i < n; ++i) {
    int major = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, i) == cudaSuccess && major >= 9) ++usable;
  }
  return usable;
}

void set_device(int ordinal) {
  if (const cudaError_t e = cudaSetDevice(ordinal); e != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error("cudaSetDevice(" + std::to_string(ordinal) + "): " + cudaGetErrorString(e));
  }
}

int current_device() {
  int d = 0;
  if (const cudaError_t e = cudaGetDevice(&d); e != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error(std::string("cudaGetDevice: ") + cudaGetErrorString(e));
  }
  return d;
}

device_info_t device_info(int ordinal) {
  auto fail = [&](const char* what, cudaError_t e) {
    cudaGetLastError();
    return std::runtime_error(std::string(what) + "(" + std::to_string(ordinal) + "): " + cudaGetErrorString(e));
  };
  cudaDeviceProp prop{};
  if (const cudaError_t e = cudaGetDeviceProperties(&prop, ordinal); e != cudaSuccess) throw fail("cudaGetDeviceProperties", e);
  // cudaMemGetInfo answers for the current device: switch, ask, switch back.
  const int previous = current_device();
  set_device(ordinal);
  std::size_t free = 0, total = 0;
  const cudaError_t e = cudaMemGetInfo(&free, &total);
  set_device(previous);
  if (e != cudaSuccess) throw fail("cudaMemGetInfo", e);
  return {prop.name, total, free};
}

}  // namespace cuzk::gpu
