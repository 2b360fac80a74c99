#include "service/tcp_gate_t.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <grpcpp/server_posix.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>

#include <cerrno>
#include <cstring>

#include "service/config_error.hpp"

namespace cuzk::service {
namespace {

constexpr auto refusal_window = std::chrono::seconds(60);
constexpr uint32_t refusal_burst = 20;

}  // namespace

tcp_gate_t::tcp_gate_t(const listen_address_t& address, std::vector<address_range_t> allow)
    : allow_(std::move(allow)) {
  auto where = numeric_address(address.host);
  if (!where) throw config_error(fmt::format("listen address {}: not a numeric IP address", address.host));
  socklen_t len;
  if (where->ss_family == AF_INET) {
    reinterpret_cast<sockaddr_in*>(&*where)->sin_port = htons(address.port);
    len = sizeof(sockaddr_in);
  } else {
    reinterpret_cast<sockaddr_in6*>(&*where)->sin6_port = htons(address.port);
    len = sizeof(sockaddr_in6);
  }
  listen_fd_ = unique_fd_t(::socket(where->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!listen_fd_) throw config_error(fmt::format("{}: cannot create a socket: {}", address.grpc_target(), std::strerror(errno)));
  int one = 1;
  ::setsockopt(listen_fd_.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (::bind(listen_fd_.get(), reinterpret_cast<const sockaddr*>(&*where), len) != 0) {
    throw config_error(fmt::format("cannot listen on {}: {}", address.grpc_target(), std::strerror(errno)));
  }
  if (::listen(listen_fd_.get(), SOMAXCONN) != 0) {
    throw config_error(fmt::format("cannot listen on {}: {}", address.grpc_target(), std::strerror(errno)));
  }
  sockaddr_storage bound{};
  socklen_t blen = sizeof(bound);
  ::getsockname(listen_fd_.get(), reinterpret_cast<sockaddr*>(&bound), &blen);
  port_ = ntohs(bound.ss_family == AF_INET ? reinterpret_cast<sockaddr_in*>(&bound)->sin_port
                                           : reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port);
  wake_fd_ = unique_fd_t(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake_fd_) throw config_error(fmt::format("eventfd: {}", std::strerror(errno)));
}

tcp_gate_t::~tcp_gate_t() { stop(); }

void tcp_gate_t::start(grpc::Server& server) {
  thread_ = std::jthread([this, s = &server](std::stop_token st) { accept_loop(st, s); });
}

void tcp_gate_t::stop() {
  if (thread_.joinable()) {
    thread_.request_stop();
    thread_.join();
  }
  listen_fd_.reset();
}

void tcp_gate_t::accept_loop(std::stop_token stop, grpc::Server* server) {
  std::stop_callback wake(stop, [this] {
    const uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(wake_fd_.get(), &one, sizeof(one));
  });
  while (!stop.stop_requested()) {
    pollfd fds[2] = {{listen_fd_.get(), POLLIN, 0}, {wake_fd_.get(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      spdlog::error("tcp listener: poll: {}", std::strerror(errno));
      return;
    }
    if (fds[1].revents != 0) return;
    sockaddr_storage peer{};
    socklen_t len = sizeof(peer);
    unique_fd_t fd(::accept4(listen_fd_.get(), reinterpret_cast<sockaddr*>(&peer), &len, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (!fd) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors: back off instead of spinning on a ready backlog.
        spdlog::error("tcp listener: accept: {}; retrying in 100 ms", std::strerror(errno));
        pollfd w{wake_fd_.get(), POLLIN, 0};
        ::poll(&w, 1, 100);
      }
      continue;  // EAGAIN, ECONNABORTED, EINTR: the next connection
    }
    admit(std::move(fd), peer, server);
  }
}

void tcp_gate_t::admit(unique_fd_t fd, const sockaddr_storage& peer, grpc::Server* server) {
  const auto* sa = reinterpret_cast<const sockaddr*>(&peer);
  const std::string who = address_text(sa);
  if (!allowed(allow_, sa)) {
    ++refused_;
    log_refusal(who);
    return;  // fd closes: the client sees the connection end before any RPC
  }
  int one = 1;
  ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  spdlog::debug("tcp listener: connection from {} accepted", who);
  grpc::AddInsecureChannelFromFd(server, fd.release());
}

void tcp_gate_t::log_refusal(const std::string& peer) {
  const auto now = std::chrono::steady_clock::now();
  if (now - window_start_ >= refusal_window) {
    if (suppressed_ > 0) {
      spdlog::warn("tcp listener: {} more connections refused in the last minute (not logged one by one)",
                   suppressed_);
    }
    window_start_ = now;
    logged_in_window_ = 0;
    suppressed_ = 0;
  }
  if (logged_in_window_ < refusal_burst) {
    ++logged_in_window_;
    spdlog::warn("tcp listener: connection from {} refused: not in [daemon] allow", peer);
  } else {
    ++suppressed_;
  }
}

}  // namespace cuzk::service
