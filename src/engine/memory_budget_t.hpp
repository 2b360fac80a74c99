#pragma once
// The byte budget every partition and every loaded parameter set draws from
// (DESIGN.md 4; CUZK_API.md 4.2 without its optimistic add-then-undo: the check
// and the add happen under one lock, so `reserved` can never exceed `total`,
// not even for an instant). Waiting is a condition variable woken by every
// release, never polling.
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

  explicit memory_budget_t(uint64_t total, observer_t observer = {});
  memory_budget_t(const memory_budget_t&) = delete;
  memory_budget_t& operator=(const memory_budget_t&) = delete;

  uint64_t total() const { return total_; }
  uint64_t reserved() const;
  uint64_t partition_bytes() const;
  uint64_t resident_bytes() const;

  // Blocks until `bytes` fit. Returns nullopt if `abandon()` turns true (it is
  // re-checked on every release and on wake_all()) or if bytes > total.
  std::optional<reservation_t> reserve(uint64_t bytes, const std::function<bool()>& abandon, bool resident = false);
  std::optional<reservation_t> try_reserve(uint64_t bytes, bool resident = false);

  // Makes blocked reserve() calls re-check their abandon predicate.
  void wake_all();

 private:
  friend class reservation_t;
  void give_back(uint64_t bytes, bool resident, const char* event);
  void notify_locked(std::string_view event);

  const uint64_t total_;
  observer_t observer_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint64_t partition_bytes_ = 0, resident_bytes_ = 0;
};

}  // namespace cuzk::engine
