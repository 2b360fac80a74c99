#include "engine/memory_budget_t.hpp"

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

memory_budget_t::memory_budget_t(uint64_t total, observer_t observer) : total_(total), observer_(std::move(observer)) {}

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

std::optional<reservation_t> memory_budget_t::reserve(uint64_t bytes, const std::function<bool()>& abandon,
                                                      bool resident) {
  if (bytes > total_) return std::nullopt;
  std::unique_lock lk(mu_);
  for (;;) {
    if (abandon && abandon()) return std::nullopt;
    if (partition_bytes_ + resident_bytes_ + bytes <= total_) break;
    cv_.wait(lk);
  }
  (resident ? resident_bytes_ : partition_bytes_) += bytes;
  notify_locked(resident ? "reserve_resident" : "reserve");
  return reservation_t(this, bytes, resident);
}

std::optional<reservation_t> memory_budget_t::try_reserve(uint64_t bytes, bool resident) {
  std::lock_guard lk(mu_);
  if (partition_bytes_ + resident_bytes_ + bytes > total_) return std::nullopt;
  (resident ? resident_bytes_ : partition_bytes_) += bytes;
  notify_locked(resident ? "reserve_resident" : "reserve");
  return reservation_t(this, bytes, resident);
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
