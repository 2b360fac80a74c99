#pragma once
// The proving daemon: an engine plus the gRPC server in front of it, and
// the optional TLS and HTTP status listeners ([daemon] tls_listen,
// status_listen). TCP clients outside [daemon] allow are refused.
// Construction starts both (listening when the constructor returns);
// shutdown() drains: new submissions are refused (UNAVAILABLE), every
// accepted job runs to the end while the server keeps answering AwaitProof
// and GetStatus, then the server stops and the engine's threads are joined.
#include <grpcpp/grpcpp.h>

#include <memory>
#include <mutex>
#include <string>

#include "engine/engine.hpp"
#include "service/config_values.hpp"
#include "service/daemon_config_t.hpp"
#include "service/proving_service_t.hpp"
#include "service/status_server_t.hpp"
#include "service/tcp_gate_t.hpp"

namespace cuzk::service {

inline constexpr int max_message_bytes = 128 << 20;  // PoRep C1 output is about 51 MB

class daemon_t {
 public:
  // Throws config_error when the address cannot be used (a live daemon on
  // the socket, a path that is not a socket, a port already bound).
  explicit daemon_t(const daemon_config_t& config, engine::engine_hooks_t hooks = {});
  ~daemon_t();  // shutdown()
  daemon_t(const daemon_t&) = delete;
  daemon_t& operator=(const daemon_t&) = delete;

  // Where clients connect: "unix:///path" or "IP:port" (the bound port when
  // the configuration said 0).
  const std::string& address() const { return address_; }
  // The TLS listener's and the HTTP status listener's "IP:port"; "" when off.
  const std::string& tls_address() const { return tls_address_; }
  const std::string& status_address() const { return status_address_; }
  engine::engine_t& engine() { return *engine_; }

  void shutdown();  // idempotent; blocks until drained

 private:
  void prepare_unix_socket() const;

  listen_address_t listen_;
  std::string address_, tls_address_, status_address_;
  std::unique_ptr<engine::engine_t> engine_;
  std::unique_ptr<proving_service_t> service_;
  std::unique_ptr<grpc::Server> server_;
  // Declared after server_ so that it stops (joins its accept thread) before
  // the server it hands connections to is destroyed.
  std::unique_ptr<tcp_gate_t> gate_;  // plaintext TCP listener; null on a unix socket
  std::unique_ptr<status_server_t> status_;  // reads engine_
  std::once_flag shutdown_once_;
};

// Logging as configured: level and text/json line format, on stderr.
void configure_logging(const std::string& level, const std::string& format);

}  // namespace cuzk::service
