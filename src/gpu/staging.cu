#include "gpu/staging.cuh"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gpu/cuda_check.cuh"

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

// Registrations by start address, with the number of pins sharing each.
struct pin_table {
  std::mutex mu;
  std::map<const char*, std::pair<size_t, size_t>> pins;  // first page -> (bytes, pins)
};
pin_table& pins() {
  static pin_table* t = new pin_table;  // never destroyed, like the staging pool
  return *t;
}

}  // namespace

host_pin::host_pin(const void* p, size_t bytes) {
  const uintptr_t page = 4096, lo = (uintptr_t(p) + page - 1) / page * page, hi = (uintptr_t(p) + bytes) / page * page;
  if (!p || hi <= lo) return;
  const char* b = reinterpret_cast<const char*>(lo);
  auto& t = pins();
  std::lock_guard lk(t.mu);
  auto it = t.pins.find(b);
  if (it != t.pins.end()) {
    if (it->second.first != hi - lo) throw std::runtime_error("host_pin: these pages are pinned with another size");
    ++it->second.second;
  } else {
    CUDA_OK(cudaHostRegister(const_cast<char*>(b), hi - lo, cudaHostRegisterPortable));
    t.pins.emplace(b, std::pair<size_t, size_t>(hi - lo, 1));
  }
  begin_ = b;
  end_ = reinterpret_cast<const char*>(hi);
}

host_pin::~host_pin() {
  if (!begin_) return;
  auto& t = pins();
  std::lock_guard lk(t.mu);
  auto it = t.pins.find(begin_);
  if (it != t.pins.end() && --it->second.second == 0) {
    cudaHostUnregister(const_cast<char*>(begin_));  // no throw from a destructor
    t.pins.erase(it);
  }
}

host_pin::host_pin(host_pin&& o) noexcept
    : begin_(std::exchange(o.begin_, nullptr)), end_(std::exchange(o.end_, nullptr)) {}
host_pin& host_pin::operator=(host_pin&& o) noexcept {
  if (this != &o) {
    host_pin old(std::move(*this));
    begin_ = std::exchange(o.begin_, nullptr);
    end_ = std::exchange(o.end_, nullptr);
  }
  return *this;
}

void upload_pinned(void* dst, const void* src, size_t bytes, const host_pin& pin, cudaStream_t s) {
  const char* a = static_cast<const char*>(src);
  const char* z = a + bytes;
  const char* lo = std::clamp(pin.begin(), a, z);
  const char* hi = std::clamp(pin.end(), lo, z);
  char* d = static_cast<char*>(dst);
  if (lo > a) upload_staged(d, a, size_t(lo - a), s);
  if (hi > lo) CUDA_OK(cudaMemcpyAsync(d + (lo - a), lo, size_t(hi - lo), cudaMemcpyHostToDevice, s));
  if (z > hi) upload_staged(d + (hi - a), hi, size_t(z - hi), s);
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
