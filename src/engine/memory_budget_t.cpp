#include "engine/memory_budget_t.hpp"

#include <algorithm>

namespace cuzk::engine {

void reservation_t::shrink_to(uint64_t keep, const char* event) {
  if (!budget_ || keep >= bytes_) return;
  const uint64_t give = bytes_ - keep;
  bytes_ = keep;
  budget_->give_back(give, resident_, event);
}

void reservation_t::release(const char* event) {
  if (!budget_) return;
  auto* b = std::exchange(budget_, nullptr);
  b->give_back(std::exchange(bytes_, 0), resident_, event);
}

memory_budget_t::memory_budget_t(uint64_t total, observer_t observer, uint64_t critical_reserve)
    : total_(total), critical_reserve_(std::min(critical_reserve, total)), observer_(std::move(observer)) {}

uint64_t memory_budget_t::reserved() const {
  std::lock_guard lk(mu_);
  return partition_bytes_ + resident_bytes_;
}

uint64_t memory_budget_t::partition_bytes() const {
  std::lock_guard lk(mu_);
  return partition_bytes_;
}

uint64_t memory_budget_t::resident_bytes() const {
  std::lock_guard lk(mu_);
  return resident_bytes_;
}

uint64_t memory_budget_t::pooled_bytes() const {
  std::lock_guard lk(mu_);
  return pooled_bytes_;
}

void memory_budget_t::bank(reservation_t& r, uint64_t bytes) {
  if (r.budget_ != this || r.resident_) return;
  std::lock_guard lk(mu_);
  const uint64_t n = std::min(bytes, r.bytes_);
  r.bytes_ -= n;
  pooled_bytes_ += n;
  notify_locked("bank");
}

void memory_budget_t::unbank(uint64_t bytes) {
  {
    std::lock_guard lk(mu_);
    const uint64_t n = std::min(bytes, pooled_bytes_);
    if (n == 0) return;
    pooled_bytes_ -= n;
    partition_bytes_ -= n;
    notify_locked("unbank");
  }
  cv_.notify_all();
}

void memory_budget_t::set_reclaimer(std::function<void(uint64_t)> reclaim) {
  std::lock_guard lk(mu_);
  reclaim_ = std::move(reclaim);
}

std::optional<reservation_t> memory_budget_t::grant_locked(uint64_t bytes, bool resident, const claim_t& claim,
                                                           share_t share) {
  const uint64_t used = partition_bytes_ + resident_bytes_, top = limit(share);
  uint64_t claimed = 0;
  if (used + bytes > top) {
    // Only pooled bytes taken over can make it fit.
    const uint64_t max = std::min(bytes, pooled_bytes_), need = used + bytes - top;
    if (resident || !claim || max < need) return std::nullopt;
    claimed = std::min(claim(need, max, false), max);
    if (claimed < need) return std::nullopt;
  } else if (claim && !resident && pooled_bytes_ > 0) {
    claimed = std::min(claim(0, std::min(bytes, pooled_bytes_), false), pooled_bytes_);
  }
  pooled_bytes_ -= claimed;
  (resident ? resident_bytes_ : partition_bytes_) += bytes - claimed;
  notify_locked(resident ? "reserve_resident" : "reserve");
  return reservation_t(this, bytes, resident);
}

std::optional<reservation_t> memory_budget_t::reserve(uint64_t bytes, const std::function<bool()>& abandon,
                                                      bool resident, const claim_t& claim, share_t share) {
  const uint64_t top = limit(share);
  if (bytes > top) return std::nullopt;
  std::unique_lock lk(mu_);
  bool waited = false;  // the last wait was a whole `patience` with usable pooled buffers and no release
  for (;;) {
    if (abandon && abandon()) return std::nullopt;
    if (auto r = grant_locked(bytes, resident, claim, share)) return r;
    bool can_use = false;
    if (reclaim_ && pooled_bytes_ > 0) {
      // Idle pooled buffers stand in the way. Kept while this reservation
      // could use some of them and has not waited long: a release (a
      // finalize) may yet make them enough.
      can_use = !resident && claim && claim(0, std::min(bytes, pooled_bytes_), true) > 0;
      if (!can_use || waited) {
        const uint64_t before = pooled_bytes_, need = partition_bytes_ + resident_bytes_ + bytes - top;
        auto reclaim = reclaim_;
        lk.unlock();
        reclaim(need);
        lk.lock();
        waited = false;
        if (pooled_bytes_ < before) continue;
      }
    }
    waited = cv_.wait_for(lk, patience) == std::cv_status::timeout && can_use;
  }
}

std::optional<reservation_t> memory_budget_t::try_reserve(uint64_t bytes, bool resident, const claim_t& claim,
                                                          share_t share) {
  std::lock_guard lk(mu_);
  return grant_locked(bytes, resident, claim, share);
}

void memory_budget_t::wake_all() {
  // Taking the lock orders this notify after a waiter's predicate check.
  { std::lock_guard lk(mu_); }
  cv_.notify_all();
}

void memory_budget_t::give_back(uint64_t bytes, bool resident, const char* event) {
  {
    std::lock_guard lk(mu_);
    (resident ? resident_bytes_ : partition_bytes_) -= bytes;
    notify_locked(event);
  }
  cv_.notify_all();
}

void memory_budget_t::notify_locked(std::string_view event) {
  if (observer_) observer_(event, partition_bytes_, resident_bytes_);
}

}  // namespace cuzk::engine
