#pragma once
// The five gauges and one log line per transition:
//   BUFFERS[event] synthesizing=.. queued=.. on_gpu=.. pending_finalize=.. bytes_reserved=.. params_bytes=..
// Counts change only through gauge_t (RAII, owned by the partition it counts)
// and the memory budget's observer, so a path that drops a partition cannot
// leave a count behind (CUZK_API.md 7.3 F4: a counter that was never decremented).
#include <functional>
#include <mutex>
#include <string_view>

#include "engine/gauge_kind_t.hpp"
#include "engine/gauge_snapshot_t.hpp"

namespace cuzk::engine {

class gauge_set_t {
 public:
  using observer_t = std::function<void(std::string_view event, const gauge_snapshot_t&)>;
  explicit gauge_set_t(observer_t observer = {}) : observer_(std::move(observer)) {}

  gauge_snapshot_t snapshot() const;

  // One transition: `from` down by one, `to` up by one (either may be none).
  void move(gauge_kind_t from, gauge_kind_t to, std::string_view event);
  void set_bytes(uint64_t partition_bytes, uint64_t resident_bytes, std::string_view event);

 private:
  static int64_t* slot(gauge_snapshot_t& g, gauge_kind_t k);
  void emit_locked(std::string_view event);

  observer_t observer_;
  mutable std::mutex mu_;
  gauge_snapshot_t g_;
};

}  // namespace cuzk::engine
