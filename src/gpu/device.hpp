#pragma once
// Which GPUs this build can use. Plain C++ (no CUDA types): tests and the
// engine call it to decide between the CUDA and CPU backends.
#include <cstddef>
#include <string>

namespace cuzk::gpu {

// Number of CUDA devices of compute capability >= 9.0 (the kernels are built
// for sm_90a); 0 when there is no driver, no device, or the build has no CUDA.
int device_count();

// Makes GPU `ordinal` the calling thread's current device (CUDA keeps one per
// thread): every later allocation and launch of this thread goes there.
// Throws std::runtime_error for a bad ordinal or in a build without CUDA.
void set_device(int ordinal);

// The calling thread's current device (0 where none was set); throws like set_device.
int current_device();

// What status reports show of a GPU: its name and its memory, total and free now.
struct device_info_t {
  std::string name;
  std::size_t memory_total = 0, memory_free = 0;
};

// For GPU `ordinal`, without changing the calling thread's current device.
// Throws std::runtime_error for a bad ordinal or in a build without CUDA.
device_info_t device_info(int ordinal);

// Page-locks the whole pages of the host buffer [p, p + bytes) in place
// until the buffer is freed, so uploads from it (compute_h's a, b, c, the
// aux assignment) are one DMA at full PCIe speed with no staging copy. For
// buffers of r1cs::uninit_allocator of >= 2 MiB only: its deallocate unlocks
// them first (r1cs::large_free_hook). Measured on the H200 host: ~85 ms to
// lock 4 GiB of touched huge pages, ~66 ms to unlock, and 77 ms to upload
// them, against ~270 ms to stage them through pinned buffers while synthesis
// keeps the host's cores busy. Throws std::runtime_error when the driver
// refuses or in a build without CUDA.
void pin_until_freed(const void* p, std::size_t bytes);

// Host bytes page-locked by cuzk now (pinned parameters and witness buffers).
std::size_t pinned_bytes();

}  // namespace cuzk::gpu
