#pragma once
// An allocator whose value-initialization is default-initialization, so
// resize(n) of a vector of trivially constructible fr_t reserves and maps the
// memory without writing zeros: every element is written by synthesis
// anyway. Measured on 2 KiB (2.1 M rows): zero-filling a, b, c and aux took
// a quarter of single-thread synthesis time, and first-touch page faults
// moved from one thread into the parallel writers. Buffers of 2 MiB and
// more are also 2 MiB aligned and advised as transparent huge pages: in the
// VM we measured on, 4 KiB first-touch faults cost a quarter of synthesis.
#include <sys/mman.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::r1cs {

// Called with every buffer of >= 2 MiB just before it is freed (start and
// rounded length). The GPU layer page-locks witness buffers in place for DMA
// (gpu::pin_until_freed) and must unlock them before their pages can be
// handed out again: a registration that outlived its memory would make the
// driver DMA from whatever is mapped there next. Must not throw.
using large_free_hook_t = void (*)(void* p, std::size_t bytes) noexcept;
inline std::atomic<large_free_hook_t> large_free_hook{nullptr};

// A cache the allocator asks first for buffers of >= 2 MiB (r1cs::buffer_pool_t):
// take may hand out a cached buffer of exactly `bytes` (rounded), keep may
// hold on to one about to be freed instead (true: the cache owns it now).
// Both must not throw.
struct large_buffer_cache_t {
  virtual void* take(std::size_t bytes) noexcept = 0;
  virtual bool keep(void* p, std::size_t bytes) noexcept = 0;

 protected:
  ~large_buffer_cache_t() = default;
};
inline std::atomic<large_buffer_cache_t*> large_buffer_cache{nullptr};

// What the allocator does with a large buffer nobody keeps: the free hook, then free.
inline void free_large(void* p, std::size_t rounded_bytes) noexcept {
  if (const large_free_hook_t hook = large_free_hook.load(std::memory_order_acquire)) hook(p, rounded_bytes);
  std::free(p);
}

template <class T>
struct uninit_allocator : std::allocator<T> {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = uninit_allocator<U>;
  };

  static constexpr std::size_t huge_page = std::size_t(2) << 20;

  uninit_allocator() = default;
  template <class U>
  uninit_allocator(const uninit_allocator<U>&) noexcept {}

  static constexpr std::size_t rounded(std::size_t bytes) { return (bytes + huge_page - 1) / huge_page * huge_page; }

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_page) return std::allocator<T>::allocate(n);
    if (large_buffer_cache_t* cache = large_buffer_cache.load(std::memory_order_acquire)) {
      if (void* p = cache->take(rounded(bytes))) return static_cast<T*>(p);
    }
    void* p = std::aligned_alloc(huge_page, rounded(bytes));
    if (!p) throw std::bad_alloc();
    madvise(p, rounded(bytes), MADV_HUGEPAGE);  // advice only: failure leaves 4 KiB pages
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < huge_page) return std::allocator<T>::deallocate(p, n);
    large_buffer_cache_t* cache = large_buffer_cache.load(std::memory_order_acquire);
    if (cache && cache->keep(p, rounded(n * sizeof(T)))) return;
    free_large(p, rounded(n * sizeof(T)));
  }

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    std::allocator_traits<std::allocator<T>>::construct(static_cast<std::allocator<T>&>(*this), p,
                                                        std::forward<Args>(args)...);
  }
};

template <class T, class U>
bool operator==(const uninit_allocator<T>&, const uninit_allocator<U>&) {
  return true;
}

// The buffers of a witness (a, b, c per row, the assignments): a resize()
// leaves new elements unwritten, so a caller that needs zeros says so
// (resize(n, fr_t::zero())).
using fr_vector = std::vector<ff::fr_t, uninit_allocator<ff::fr_t>>;
static_assert(std::is_trivially_default_constructible_v<ff::fr_t>, "else resize would still initialize");

}  // namespace cuzk::r1cs
