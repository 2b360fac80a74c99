#pragma once
// Witness buffers kept for the next partition instead of freed. With
// `[gpus] pin_witness` the GPU backend page-locks a partition's a, b, c and
// aux assignment after synthesis so prove_start uploads them by DMA; locking
// and unlocking 16 GiB per 32 GiB PoRep partition cost ~0.9 s and ~1 s of
// host time under load (BENCHMARKS.md, "witness buffers page-locked"). Kept
// here, a buffer stays locked and its pages stay mapped, so the next
// partition of the same shape gets it back with neither cost nor first-touch
// page faults.
//
// The engine owns one pool and accounts for it in its memory budget
// (memory_budget_t::bank / claim / reclaim):
//   keep     prove_start frees a, b, c, aux inside a keep_scope: the pool
//            keeps them idle; the engine banks as many bytes of that
//            partition's reservation (take_kept) before it shrinks it;
//   promise  admitting a partition claims idle buffers up to its witness
//            bytes; they are set aside under the partition's token and its
//            reservation is that much smaller;
//   take     the synthesis worker, inside a take_scope of that token, gets
//            them back from the allocator (exact size only);
//   forfeit  after synthesis, promised buffers it did not take are freed;
//   evict    when a reservation does not fit, idle buffers are freed.
// So every idle buffer is paid for by banked bytes or by the reservation of
// the partition it is promised to. Plain C++: tested in CI without a GPU.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "r1cs/uninit_allocator.hpp"

namespace cuzk::r1cs {

class buffer_pool_t final : public large_buffer_cache_t {
 public:
  buffer_pool_t() = default;
  ~buffer_pool_t();  // uninstalls and frees every buffer it holds
  buffer_pool_t(const buffer_pool_t&) = delete;
  buffer_pool_t& operator=(const buffer_pool_t&) = delete;

  // Becomes the allocator's large_buffer_cache; false when another cache is
  // installed (one engine per process pools its witnesses).
  bool install();
  void uninstall();

  // large_buffer_cache_t: take hands out a buffer promised to the calling
  // thread's take_scope token; keep holds a buffer freed inside a keep_scope.
  void* take(std::size_t bytes) noexcept override;
  bool keep(void* p, std::size_t bytes) noexcept override;

  // Sets idle buffers aside for `token`, largest first, totalling at most
  // max_bytes; returns their bytes, or 0 (nothing set aside) when they
  // would total less than min_bytes.
  uint64_t promise(uint64_t token, uint64_t min_bytes, uint64_t max_bytes);
  // What promise(token, 0, max_bytes) would set aside now.
  uint64_t promisable(uint64_t max_bytes) const;
  // Frees the buffers still promised to `token`; returns their bytes.
  uint64_t forfeit(uint64_t token);
  // Frees idle buffers, largest first, until at least `bytes` are freed or
  // none is left. Returns the bytes freed that had been banked (take_kept):
  // those kept and not yet banked only reduce what take_kept returns.
  uint64_t evict(uint64_t bytes);
  // Bytes kept and not yet banked, at most max_bytes; they count as banked from here on.
  uint64_t take_kept(uint64_t max_bytes);

  uint64_t idle_bytes() const;      // not promised
  uint64_t promised_bytes() const;  // promised, not yet taken
  uint64_t hits() const;            // buffers taken back by synthesis

  // Frees on this thread go to the installed pool while one lives.
  class keep_scope {
   public:
    keep_scope();
    ~keep_scope();
    keep_scope(const keep_scope&) = delete;
    keep_scope& operator=(const keep_scope&) = delete;
  };
  // Large allocations on this thread take the buffers promised to `token`.
  class take_scope {
   public:
    explicit take_scope(uint64_t token);
    ~take_scope();
    take_scope(const take_scope&) = delete;
    take_scope& operator=(const take_scope&) = delete;

   private:
    uint64_t previous_;
  };

 private:
  using buffers_t = std::multimap<std::size_t, void*, std::greater<>>;  // by size, largest first
  // Idle buffers, largest first, totalling at most max_bytes (their sum in total).
  std::vector<buffers_t::const_iterator> choose_locked(uint64_t max_bytes, uint64_t& total) const;
  static void free_all(const std::vector<std::pair<void*, std::size_t>>& doomed) noexcept;

  mutable std::mutex mu_;
  buffers_t idle_;
  std::map<uint64_t, buffers_t> promised_;
  uint64_t idle_bytes_ = 0, promised_bytes_ = 0, kept_unbanked_ = 0, hits_ = 0;
};

}  // namespace cuzk::r1cs
