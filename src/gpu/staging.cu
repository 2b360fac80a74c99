#include "gpu/staging.cuh"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/cuda_check.cuh"
#include "gpu/device.hpp"
#include "r1cs/uninit_allocator.hpp"

namespace cuzk::gpu {

namespace {

constexpr size_t chunk_bytes = size_t(32) << 20;
constexpr size_t piece_bytes = size_t(2) << 20;   // one host thread's share of a chunk
constexpr size_t direct_bytes = size_t(4) << 20;  // below this a plain copy is as fast

// Two pinned buffers and, per buffer, the event of its last transfer.
// Events belong to a device, so they are made again when a pair is used
// from another device.
struct staging_pair {
  void* buf[2] = {nullptr, nullptr};
  cudaEvent_t done[2] = {nullptr, nullptr};
  int device = -1;

  void release_events() {
    for (auto& e : done) {
      if (e) {
        cudaEventSynchronize(e);
        cudaEventDestroy(e);
      }
      e = nullptr;
    }
  }
  void prepare(int dev) {
    if (!buf[0]) {
      for (auto& b : buf) CUDA_OK(cudaHostAlloc(&b, chunk_bytes, cudaHostAllocPortable));
    }
    if (device != dev) {
      release_events();
      for (auto& e : done) CUDA_OK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      device = dev;
    }
  }
};

// Pairs are pinned once and reused by whichever thread uploads next (the
// prover's MSM threads are short-lived); one pair per concurrent upload.
// Kept for the life of the process.
class staging_pool {
 public:
  staging_pair* acquire() {
    std::lock_guard lk(mu_);
    if (free_.empty()) {
      all_.push_back(std::make_unique<staging_pair>());
      return all_.back().get();
    }
    staging_pair* p = free_.back();
    free_.pop_back();
    return p;
  }
  void release(staging_pair* p) {
    std::lock_guard lk(mu_);
    free_.push_back(p);
  }

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<staging_pair>> all_;
  std::vector<staging_pair*> free_;
};

staging_pool& pool() {
  static staging_pool* p = new staging_pool;  // never destroyed: no CUDA calls at process exit
  return *p;
}

void parallel_copy(void* dst, const void* src, size_t bytes) {
  const size_t pieces = (bytes + piece_bytes - 1) / piece_bytes;
  tbb::parallel_for(size_t(0), pieces, [&](size_t i) {
    const size_t off = i * piece_bytes;
    std::memcpy(static_cast<char*>(dst) + off, static_cast<const char*>(src) + off, std::min(piece_bytes, bytes - off));
  });
}

// Registrations by first page. A registration is held by host_pin objects
// (counted) and/or by its memory (pin_until_freed: released by the free
// hook). Generations tell a host_pin whether the entry it counted in is
// still the one at that address. The driver calls (cudaHostRegister of a
// 4 GiB witness buffer takes ~0.25 s, more under load) run with the table
// unlocked, the entry marked busy meanwhile: an upload looking up its
// pages (covering) or a WinningPoSt pinning its small buffers never waits
// for another partition's registration; only users of that same entry do.
struct pin_entry {
  size_t bytes = 0;
  size_t pins = 0;
  uint64_t generation = 0;
  bool until_freed = false;
  bool busy = false;  // being registered or unregistered, the table unlocked
};
struct pin_table {
  std::mutex mu;
  std::condition_variable settled;  // an entry stopped being busy
  std::map<const char*, pin_entry> pins;
  uint64_t generations = 0;

  using iterator = std::map<const char*, pin_entry>::iterator;

  // The registration of exactly [b, e), made now if there is none; `who`
  // names the caller in the error for pages registered with another size.
  // lk holds mu; it is released while the driver registers.
  iterator find_or_register(std::unique_lock<std::mutex>& lk, const char* b, const char* e, const char* who) {
    for (;;) {
      auto it = pins.find(b);
      if (it == pins.end()) break;
      if (it->second.busy) {
        settled.wait(lk);
        continue;
      }
      if (it->second.bytes != size_t(e - b)) throw std::runtime_error(std::string(who) + ": these pages are pinned with another size");
      return it;
    }
    auto it = pins.emplace(b, pin_entry{size_t(e - b), 0, ++generations, false, true}).first;
    lk.unlock();
    const cudaError_t err = cudaHostRegister(const_cast<char*>(b), size_t(e - b), cudaHostRegisterPortable);
    lk.lock();
    it->second.busy = false;  // a busy entry is neither erased nor replaced by others
    settled.notify_all();
    if (err != cudaSuccess) {
      pins.erase(it);
      CUDA_OK(err);
    }
    return it;
  }
  // Unregisters and removes a settled entry; lk holds mu, released while the driver unregisters.
  void erase(std::unique_lock<std::mutex>& lk, iterator it) {
    it->second.busy = true;
    lk.unlock();
    cudaHostUnregister(const_cast<char*>(it->first));  // no throw: called from destructors and the free hook
    lk.lock();
    pins.erase(it);
    settled.notify_all();
  }
  // The registration holding [p, p + bytes), if any: its pages clipped to
  // the range. One being made or released counts as none (staged copies).
  std::pair<const char*, const char*> covering(const char* p, size_t bytes) {
    std::lock_guard lk(mu);
    auto it = pins.upper_bound(p);
    if (it == pins.begin()) return {nullptr, nullptr};
    --it;
    const char* e = it->first + it->second.bytes;
    if (e <= p || it->second.busy) return {nullptr, nullptr};
    return {p, std::min(e, p + bytes)};
  }
};
pin_table& pins() {
  static pin_table* t = new pin_table;  // never destroyed, like the staging pool
  return *t;
}

std::pair<const char*, const char*> whole_pages(const void* p, size_t bytes) {
  const uintptr_t page = 4096, lo = (uintptr_t(p) + page - 1) / page * page, hi = (uintptr_t(p) + bytes) / page * page;
  if (!p || hi <= lo) return {nullptr, nullptr};
  return {reinterpret_cast<const char*>(lo), reinterpret_cast<const char*>(hi)};
}

// r1cs::large_free_hook: unlocks every registration starting inside the
// buffer about to be freed.
void unpin_before_free(void* p, size_t bytes) noexcept {
  auto& t = pins();
  std::unique_lock lk(t.mu);
  const char* b = static_cast<const char*>(p);
  for (;;) {
    auto it = t.pins.lower_bound(b);
    if (it == t.pins.end() || it->first >= b + bytes) return;
    if (it->second.busy) {
      t.settled.wait(lk);
    } else {
      t.erase(lk, it);
    }
  }
}

void direct_or_staged(char* d, const char* a, size_t bytes, const char* lo, const char* hi, cudaStream_t s) {
  const char* z = a + bytes;
  lo = std::clamp(lo, a, z);
  hi = std::clamp(hi, lo, z);
  if (lo > a) upload_staged(d, a, size_t(lo - a), s);
  if (hi > lo) CUDA_OK(cudaMemcpyAsync(d + (lo - a), lo, size_t(hi - lo), cudaMemcpyHostToDevice, s));
  if (z > hi) upload_staged(d + (hi - a), hi, size_t(z - hi), s);
}

}  // namespace

host_pin::host_pin(const void* p, size_t bytes) {
  const auto [b, e] = whole_pages(p, bytes);
  if (!b) return;
  auto& t = pins();
  std::unique_lock lk(t.mu);
  const auto it = t.find_or_register(lk, b, e, "host_pin");
  ++it->second.pins;
  generation_ = it->second.generation;
  begin_ = b;
  end_ = e;
}

host_pin::~host_pin() {
  if (!begin_) return;
  auto& t = pins();
  std::unique_lock lk(t.mu);
  auto it = t.pins.find(begin_);
  if (it == t.pins.end() || it->second.generation != generation_) return;  // its memory was freed meanwhile
  if (it->second.busy) return;  // its memory is being freed (the free hook unregisters it)
  if (--it->second.pins == 0 && !it->second.until_freed) t.erase(lk, it);
}

host_pin::host_pin(host_pin&& o) noexcept
    : begin_(std::exchange(o.begin_, nullptr)), end_(std::exchange(o.end_, nullptr)), generation_(o.generation_) {}
host_pin& host_pin::operator=(host_pin&& o) noexcept {
  if (this != &o) {
    host_pin old(std::move(*this));
    begin_ = std::exchange(o.begin_, nullptr);
    end_ = std::exchange(o.end_, nullptr);
    generation_ = o.generation_;
  }
  return *this;
}

void pin_until_freed(const void* p, size_t bytes) {
  const auto [b, e] = whole_pages(p, bytes);
  if (!b) return;
  r1cs::large_free_hook.store(&unpin_before_free, std::memory_order_release);
  auto& t = pins();
  std::unique_lock lk(t.mu);
  t.find_or_register(lk, b, e, "pin_until_freed")->second.until_freed = true;
}

size_t pinned_bytes() {
  auto& t = pins();
  std::lock_guard lk(t.mu);
  size_t n = 0;
  for (const auto& [b, e] : t.pins) n += e.bytes;
  return n;
}

void upload_host(void* dst, const void* src, size_t bytes, cudaStream_t s) {
  const char* a = static_cast<const char*>(src);
  const auto [lo, hi] = pins().covering(a, bytes);
  direct_or_staged(static_cast<char*>(dst), a, bytes, lo ? lo : a + bytes, hi ? hi : a + bytes, s);
}

void upload_pinned(void* dst, const void* src, size_t bytes, const host_pin& pin, cudaStream_t s) {
  direct_or_staged(static_cast<char*>(dst), static_cast<const char*>(src), bytes, pin.begin(), pin.end(), s);
}

void upload_staged(void* dst, const void* src, size_t bytes, cudaStream_t s) {
  if (bytes < direct_bytes) {
    if (bytes) CUDA_OK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s));
    return;
  }
  int dev = 0;
  CUDA_OK(cudaGetDevice(&dev));
  staging_pair* pair = pool().acquire();
  struct give_back {
    staging_pair* p;
    ~give_back() { pool().release(p); }
  } hold{pair};
  pair->prepare(dev);
  int k = 0;
  for (size_t off = 0; off < bytes; off += chunk_bytes, k ^= 1) {
    const size_t len = std::min(chunk_bytes, bytes - off);
    CUDA_OK(cudaEventSynchronize(pair->done[k]));  // the buffer's previous transfer is done
    parallel_copy(pair->buf[k], static_cast<const char*>(src) + off, len);
    CUDA_OK(cudaMemcpyAsync(static_cast<char*>(dst) + off, pair->buf[k], len, cudaMemcpyHostToDevice, s));
    CUDA_OK(cudaEventRecord(pair->done[k], s));
  }
}

}  // namespace cuzk::gpu
