#pragma once
// A partition's place in the gauges: counts one in its current stage and
// moves with it; destroying it (the partition dropped on any path) takes the
// count back down.
#include <utility>

#include "engine/gauge_set_t.hpp"

namespace cuzk::engine {

class gauge_t {
 public:
  gauge_t() = default;
  explicit gauge_t(gauge_set_t& set) : set_(&set) {}
  gauge_t(gauge_t&& o) noexcept : set_(std::exchange(o.set_, nullptr)), kind_(std::exchange(o.kind_, gauge_kind_t::none)) {}
  gauge_t& operator=(gauge_t&& o) noexcept {
    if (this != &o) {
      reset("drop");
      set_ = std::exchange(o.set_, nullptr);
      kind_ = std::exchange(o.kind_, gauge_kind_t::none);
    }
    return *this;
  }
  gauge_t(const gauge_t&) = delete;
  gauge_t& operator=(const gauge_t&) = delete;
  ~gauge_t() { reset("drop"); }

  gauge_kind_t kind() const { return kind_; }

  void enter(gauge_kind_t to, std::string_view event) {
    if (!set_ || to == kind_) return;
    set_->move(kind_, to, event);
    kind_ = to;
  }
  void reset(std::string_view event) {
    if (set_ && kind_ != gauge_kind_t::none) set_->move(kind_, gauge_kind_t::none, event);
    kind_ = gauge_kind_t::none;
  }

 private:
  gauge_set_t* set_ = nullptr;
  gauge_kind_t kind_ = gauge_kind_t::none;
};

}  // namespace cuzk::engine
