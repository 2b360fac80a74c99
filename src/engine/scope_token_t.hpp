#pragma once
// Runs a function once when destroyed (or reset); move-only. Lets a partition
// tell its job "I am gone" on whatever path it is dropped.
#include <functional>
#include <utility>

namespace cuzk::engine {

class scope_token_t {
 public:
  scope_token_t() = default;
  explicit scope_token_t(std::function<void()> f) : f_(std::move(f)) {}
  scope_token_t(scope_token_t&& o) noexcept : f_(std::exchange(o.f_, nullptr)) {}
  scope_token_t& operator=(scope_token_t&& o) noexcept {
    if (this != &o) {
      reset();
      f_ = std::exchange(o.f_, nullptr);
    }
    return *this;
  }
  scope_token_t(const scope_token_t&) = delete;
  scope_token_t& operator=(const scope_token_t&) = delete;
  ~scope_token_t() { reset(); }

  void reset() {
    if (auto f = std::exchange(f_, nullptr)) f();
  }

 private:
  std::function<void()> f_;
};

}  // namespace cuzk::engine
