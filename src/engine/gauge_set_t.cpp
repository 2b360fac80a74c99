#include "engine/gauge_set_t.hpp"

#include <spdlog/spdlog.h>

namespace cuzk::engine {

gauge_snapshot_t gauge_set_t::snapshot() const {
  std::lock_guard lk(mu_);
  return g_;
}

int64_t* gauge_set_t::slot(gauge_snapshot_t& g, gauge_kind_t k) {
  switch (k) {
    case gauge_kind_t::synthesizing: return &g.synthesizing;
    case gauge_kind_t::queued: return &g.queued;
    case gauge_kind_t::on_gpu: return &g.on_gpu;
    case gauge_kind_t::pending_finalize: return &g.pending_finalize;
    case gauge_kind_t::none: break;
  }
  return nullptr;
}

void gauge_set_t::move(gauge_kind_t from, gauge_kind_t to, std::string_view event) {
  std::lock_guard lk(mu_);
  if (auto* s = slot(g_, from)) --*s;
  if (auto* s = slot(g_, to)) ++*s;
  emit_locked(event);
}

void gauge_set_t::set_bytes(uint64_t partition_bytes, uint64_t resident_bytes, std::string_view event) {
  std::lock_guard lk(mu_);
  g_.bytes_reserved = int64_t(partition_bytes);
  g_.params_bytes = int64_t(resident_bytes);
  emit_locked(event);
}

void gauge_set_t::emit_locked(std::string_view event) {
  spdlog::debug("BUFFERS[{}] synthesizing={} queued={} on_gpu={} pending_finalize={} bytes_reserved={} params_bytes={}",
                event, g_.synthesizing, g_.queued, g_.on_gpu, g_.pending_finalize, g_.bytes_reserved,
                g_.params_bytes);
  if (observer_) observer_(event, g_);
}

}  // namespace cuzk::engine
