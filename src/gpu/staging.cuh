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
#include <cstdint>

namespace cuzk::gpu {

void upload_staged(void* dst, const void* src, size_t bytes, cudaStream_t s);

// Page-locks the whole pages inside [p, p + bytes) of host memory in place
// (cudaHostRegister, portable to every device), so copies from them are DMA
// at full PCIe speed without a staging copy, for as long as one pin of that
// range lives. Only whole pages: the partial pages at the ends may be shared
// with other allocations, and two registrations must not overlap. Pins of the
// same range share one registration (one parameter set used by two GPUs).
class host_pin {
 public:
  host_pin() = default;
  host_pin(const void* p, size_t bytes);
  ~host_pin();
  host_pin(host_pin&& o) noexcept;
  host_pin& operator=(host_pin&& o) noexcept;
  host_pin(const host_pin&) = delete;
  host_pin& operator=(const host_pin&) = delete;

  // The pinned pages; empty when the range holds no whole page.
  const char* begin() const { return begin_; }
  const char* end() const { return end_; }

 private:
  const char* begin_ = nullptr;
  const char* end_ = nullptr;
  uint64_t generation_ = 0;  // of the registration it counts in
};

// upload_staged, except that the part of [src, src + bytes) inside `pin`
// goes by one direct DMA (the ends outside it through the staging path).
void upload_pinned(void* dst, const void* src, size_t bytes, const host_pin& pin, cudaStream_t s);

// upload_pinned with whatever registration (host_pin or pin_until_freed)
// holds `src`: direct DMA for the part it covers, staged for the rest.
// Unlike upload_staged, the source must stay until the stream has passed
// the copy (the caller synchronizes before freeing it).
void upload_host(void* dst, const void* src, size_t bytes, cudaStream_t s);

}  // namespace cuzk::gpu
