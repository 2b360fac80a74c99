#pragma once
// The daemon's insecure TCP listener, with `[daemon] allow` applied before
// gRPC sees a byte: we accept each connection ourselves, check the peer
// address against the allowed ranges, close (and log) a refused one, and hand
// an allowed one to the gRPC server (grpc::AddInsecureChannelFromFd). A
// refused client never reaches HTTP/2, so no RPC of it can run.
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <stop_token>
#include <thread>
#include <vector>

#include "service/address_range_t.hpp"
#include "service/config_values.hpp"
#include "service/unique_fd_t.hpp"

namespace cuzk::service {

class tcp_gate_t {
 public:
  // Binds and listens (port 0 = a free port the kernel picks); connections
  // wait in the backlog until start(). Throws config_error when the address
  // cannot be bound.
  tcp_gate_t(const listen_address_t& address, std::vector<address_range_t> allow);
  ~tcp_gate_t();  // stop()
  tcp_gate_t(const tcp_gate_t&) = delete;
  tcp_gate_t& operator=(const tcp_gate_t&) = delete;

  uint16_t port() const { return port_; }
  // Starts the accept thread; `server` must outlive stop().
  void start(grpc::Server& server);
  // Stops accepting and closes the listening socket; connections already
  // handed to gRPC stay open. Idempotent.
  void stop();
  uint64_t refused() const { return refused_; }

 private:
  void accept_loop(std::stop_token stop, grpc::Server* server);
  void admit(unique_fd_t fd, const sockaddr_storage& peer, grpc::Server* server);
  void log_refusal(const std::string& peer);

  std::vector<address_range_t> allow_;
  unique_fd_t listen_fd_, wake_fd_;
  uint16_t port_ = 0;
  std::atomic<uint64_t> refused_{0};
  // At most burst refusals are logged per window, then one summary: a port
  // scan or a misconfigured client must not flood the log.
  std::chrono::steady_clock::time_point window_start_{};
  uint32_t logged_in_window_ = 0;
  uint64_t suppressed_ = 0;
  std::jthread thread_;
};

}  // namespace cuzk::service
