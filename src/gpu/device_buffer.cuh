#pragma once
// Owner of one device allocation of count elements of T (plain device
// memory, never managed). Move-only; freed on destruction. Made without a
// stream: cudaMalloc / cudaFree (a free waits for the whole device). Made on
// a stream: the stream-ordered allocator (cudaMallocAsync), freed on that
// stream (cudaFreeAsync), so neither waits for other streams' work; the
// stream must outlive the buffer.
#include <cstddef>
#include <span>
#include <utility>

#include "gpu/cuda_check.cuh"
#include "gpu/staging.cuh"

namespace cuzk::gpu {

template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(size_t count) : count_(count) {
    if (count) CUDA_OK(cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T)));
  }
  device_buffer(size_t count, cudaStream_t s) : count_(count), stream_(s), ordered_(true) {
    if (count) CUDA_OK(cudaMallocAsync(reinterpret_cast<void**>(&ptr_), count * sizeof(T), s));
  }
  ~device_buffer() {
    // No throw from a destructor; a sticky error shows at the next check.
    if (ptr_) ordered_ ? cudaFreeAsync(ptr_, stream_) : cudaFree(ptr_);
  }
  device_buffer(device_buffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)),
        count_(std::exchange(o.count_, 0)),
        stream_(o.stream_),
        ordered_(o.ordered_) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      device_buffer tmp(std::move(*this));
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
      stream_ = o.stream_;
      ordered_ = o.ordered_;
    }
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  T* data() const { return ptr_; }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

  // Host element type H must have T's bytes (fr_t <-> fr_d); checked by size.
  // Through pinned staging buffers (staging.cuh), never the driver's own
  // staging of pageable memory; the source may be freed once this returns.
  template <class H>
  void upload(std::span<const H> src, cudaStream_t s = nullptr) {
    static_assert(sizeof(H) == sizeof(T));
    if (src.size() > count_) throw std::out_of_range("device_buffer::upload: source larger than buffer");
    upload_staged(ptr_, src.data(), src.size_bytes(), s);
  }
  template <class H>
  void download(std::span<H> dst, cudaStream_t s = nullptr) const {
    static_assert(sizeof(H) == sizeof(T));
    if (dst.size() > count_) throw std::out_of_range("device_buffer::download: destination larger than buffer");
    CUDA_OK(cudaMemcpyAsync(dst.data(), ptr_, dst.size_bytes(), cudaMemcpyDeviceToHost, s));
  }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
  cudaStream_t stream_ = nullptr;
  bool ordered_ = false;
};

}  // namespace cuzk::gpu
