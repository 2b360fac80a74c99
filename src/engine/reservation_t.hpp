#pragma once
// Bytes held from a memory_budget_t. Move-only; travels with the data it pays
// for, shrinks when part of that data is freed, and gives everything back when
// destroyed, so no path (success, failure, cancel) can forget to return it.
#include <cstdint>
#include <utility>

namespace cuzk::engine {

class memory_budget_t;

class reservation_t {
 public:
  reservation_t() = default;
  reservation_t(reservation_t&& o) noexcept
      : budget_(std::exchange(o.budget_, nullptr)), bytes_(std::exchange(o.bytes_, 0)), resident_(o.resident_) {}
  reservation_t& operator=(reservation_t&& o) noexcept {
    if (this != &o) {
      release();
      budget_ = std::exchange(o.budget_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
      resident_ = o.resident_;
    }
    return *this;
  }
  reservation_t(const reservation_t&) = delete;
  reservation_t& operator=(const reservation_t&) = delete;
  ~reservation_t() { release(); }

  uint64_t bytes() const { return bytes_; }
  explicit operator bool() const { return budget_ != nullptr; }

  // Keeps `keep` bytes (<= bytes()) and returns the rest at once.
  void shrink_to(uint64_t keep, const char* event = "shrink");
  void release(const char* event = "release");

 private:
  friend class memory_budget_t;
  reservation_t(memory_budget_t* b, uint64_t bytes, bool resident) : budget_(b), bytes_(bytes), resident_(resident) {}
  memory_budget_t* budget_ = nullptr;
  uint64_t bytes_ = 0;
  bool resident_ = false;  // parameters (stay while loaded) rather than a partition
};

}  // namespace cuzk::engine
