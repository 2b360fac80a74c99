#pragma once
// The body of `GET /status` on `[daemon] status_listen`: the Rust daemon's
// JSON (CUZK_API.md 5.2) filled from an engine status snapshot, plus a few
// cuzk fields (rss, GPU queue, backend per worker).
#include <nlohmann/json.hpp>

#include "engine/engine_status_t.hpp"

namespace cuzk::service {

nlohmann::json status_json(const engine::engine_status_t& s);

}  // namespace cuzk::service
