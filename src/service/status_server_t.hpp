#pragma once
// The HTTP listener of `[daemon] status_listen`, for Curio's UI and for
// Prometheus: `GET /status` answers the JSON of CUZK_API.md 5.2
// (status_json), `GET /metrics` the Prometheus text of GetMetrics; anything
// else is 404. It binds only the configured address, and a peer outside
// `[daemon] allow` gets 403 (the listener is read-only, but job ids and load
// are still nobody else's business).
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "engine/engine.hpp"
#include "service/address_range_t.hpp"
#include "service/config_values.hpp"

namespace httplib {
class Server;
}

namespace cuzk::service {

class status_server_t {
 public:
  // Binds (port 0 = a free port) and starts serving. Throws config_error when
  // the address cannot be bound.
  status_server_t(const listen_address_t& address, std::vector<address_range_t> allow, engine::engine_t& engine);
  ~status_server_t();  // stops serving and joins
  status_server_t(const status_server_t&) = delete;
  status_server_t& operator=(const status_server_t&) = delete;

  uint16_t port() const { return port_; }

 private:
  std::unique_ptr<httplib::Server> server_;
  uint16_t port_ = 0;
  std::atomic<bool> done_{false};
  std::jthread thread_;
};

}  // namespace cuzk::service
