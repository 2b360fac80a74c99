#pragma once
// The byte budget every partition and every loaded parameter set draws from
// (DESIGN.md 4; CUZK_API.md 4.2 without its optimistic add-then-undo: the check
// and the add happen under one lock, so `reserved` can never exceed `total`,
// not even for an instant). Waiting is a condition variable woken by every
// release, never polling.
//
// A standing reservation (critical_reserve) keeps bytes for critical work
// (WinningPoSt, due within seconds): a general reservation must leave that
// many bytes free, so sealing work can never fill the budget a WinningPoSt
// needs. Critical reservations may use the whole budget. The reserve stays
// free even while critical work runs outside it (the rule looks at all bytes
// used, not at who holds them): a second WinningPoSt still finds room, at the
// price of sealing work seeing a budget smaller by what critical work holds,
// for the seconds it holds it.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string_view>

#include "engine/reservation_t.hpp"

namespace cuzk::engine {

class memory_budget_t {
 public:
  // Called under the budget lock after every change with the bytes held by
  // partitions and by resident parameters.
  using observer_t = std::function<void(std::string_view event, uint64_t partition_bytes, uint64_t resident_bytes)>;

  // Which bytes a reservation may take: general ones leave critical_reserve free.
  enum class share_t { general, critical };

  // critical_reserve is clamped to total.
  explicit memory_budget_t(uint64_t total, observer_t observer = {}, uint64_t critical_reserve = 0);
  memory_budget_t(const memory_budget_t&) = delete;
  memory_budget_t& operator=(const memory_budget_t&) = delete;

  uint64_t total() const { return total_; }
  uint64_t critical_reserve() const { return critical_reserve_; }
  // The most one reservation of `share` may ever hold: total, less the reserve for general ones.
  uint64_t limit(share_t share) const { return share == share_t::critical ? total_ : total_ - critical_reserve_; }
  uint64_t reserved() const;
  uint64_t partition_bytes() const;
  uint64_t resident_bytes() const;

  // Bytes that pay for pooled buffers (r1cs::buffer_pool_t) lying idle;
  // counted among the partition bytes.
  uint64_t pooled_bytes() const;
  // Moves `bytes` (at most r.bytes()) of a partition's reservation to the
  // pooled bytes: the buffers they paid for now wait in the pool.
  void bank(reservation_t& r, uint64_t bytes);
  // Returns pooled bytes whose buffers were freed (at most pooled_bytes()).
  void unbank(uint64_t bytes);
  // Called, outside the lock, when a reservation does not fit while bytes are
  // pooled: frees idle buffers worth at least `bytes` if it can (and unbanks them).
  void set_reclaimer(std::function<void(uint64_t bytes)> reclaim);

  // A reservation may take over pooled bytes: claim(min, max, false) sets
  // aside buffers worth between min and max pooled bytes for it and returns
  // their bytes, or returns 0 and sets nothing aside; claim(0, max, true)
  // only says how many it would set aside. Called under the lock.
  using claim_t = std::function<uint64_t(uint64_t min_bytes, uint64_t max_bytes, bool dry_run)>;

  // Blocks until `bytes` fit (less what `claim` takes over from the pool).
  // Pooled bytes in the way are reclaimed at once when this reservation can
  // claim none of them, and after it has waited `patience` otherwise (the
  // buffers it could use may never be enough). Returns nullopt if `abandon()`
  // turns true (it is re-checked on every release and on wake_all()) or if
  // bytes > limit(share).
  std::optional<reservation_t> reserve(uint64_t bytes, const std::function<bool()>& abandon, bool resident = false,
                                       const claim_t& claim = {}, share_t share = share_t::general);
  std::optional<reservation_t> try_reserve(uint64_t bytes, bool resident = false, const claim_t& claim = {},
                                           share_t share = share_t::general);

  // Makes blocked reserve() calls re-check their abandon predicate.
  void wake_all();

 private:
  friend class reservation_t;
  void give_back(uint64_t bytes, bool resident, const char* event);
  void notify_locked(std::string_view event);
  // The reservation if `bytes` fit now (taking pooled bytes through `claim`).
  std::optional<reservation_t> grant_locked(uint64_t bytes, bool resident, const claim_t& claim, share_t share);

  static constexpr auto patience = std::chrono::seconds(10);

  const uint64_t total_;
  const uint64_t critical_reserve_;
  observer_t observer_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint64_t partition_bytes_ = 0, resident_bytes_ = 0, pooled_bytes_ = 0;
  std::function<void(uint64_t)> reclaim_;
};

}  // namespace cuzk::engine
