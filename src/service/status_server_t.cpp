#include "service/status_server_t.hpp"

#include <fmt/core.h>
#include <httplib.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include "service/config_error.hpp"
#include "service/status_json.hpp"

namespace cuzk::service {
namespace {

// Status polls (Curio's UI every 500 ms, a Prometheus scrape) are small:
// two threads serve them, instead of httplib's default of one per core.
constexpr size_t http_threads = 2;

}  // namespace

status_server_t::status_server_t(const listen_address_t& address, std::vector<address_range_t> allow,
                                 engine::engine_t& engine)
    : server_(std::make_unique<httplib::Server>()) {
  server_->new_task_queue = [] { return new httplib::ThreadPool(http_threads); };
  // httplib's default also sets SO_REUSEPORT, which would let a second
  // daemon bind the same port and take half the requests: address reuse only.
  server_->set_socket_options([](int sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  server_->set_pre_routing_handler([allow = std::move(allow)](const httplib::Request& req, httplib::Response& res) {
    auto peer = numeric_address(req.remote_addr);
    if (peer && allowed(allow, reinterpret_cast<const sockaddr*>(&*peer))) {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    spdlog::warn("status listener: request from {} refused: not in [daemon] allow", req.remote_addr);
    res.status = 403;
    res.set_content("forbidden: this address is not in [daemon] allow\n", "text/plain");
    return httplib::Server::HandlerResponse::Handled;
  });
  server_->Get("/status", [&engine](const httplib::Request&, httplib::Response& res) {
    try {
      res.set_header("Access-Control-Allow-Origin", "*");
      res.set_content(status_json(engine.status()).dump(), "application/json");
    } catch (const std::exception& e) {
      res.status = 500;
      res.set_content(std::string("status: ") + e.what() + "\n", "text/plain");
    }
  });
  server_->Get("/metrics", [&engine](const httplib::Request&, httplib::Response& res) {
    try {
      res.set_content(engine.metrics_text(), "text/plain; version=0.0.4; charset=utf-8");
    } catch (const std::exception& e) {
      res.status = 500;
      res.set_content(std::string("metrics: ") + e.what() + "\n", "text/plain");
    }
  });
  if (address.port == 0) {
    const int p = server_->bind_to_any_port(address.host);
    if (p <= 0) throw config_error(fmt::format("status_listen {}: cannot bind", address.grpc_target()));
    port_ = uint16_t(p);
  } else {
    if (!server_->bind_to_port(address.host, address.port)) {
      throw config_error(
          fmt::format("status_listen {}: cannot bind (address in use or not permitted?)", address.grpc_target()));
    }
    port_ = address.port;
  }
  thread_ = std::jthread([this] {
    server_->listen_after_bind();
    done_ = true;
  });
  spdlog::info("status listener on http://{} (GET /status, GET /metrics)",
               listen_address_t{false, "", address.host, port_}.grpc_target());
}

status_server_t::~status_server_t() {
  // httplib's stop() does nothing until the listen loop has started, so it
  // is repeated until that loop has seen it.
  while (!done_) {
    server_->stop();
    if (!done_) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace cuzk::service
