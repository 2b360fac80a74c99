#pragma once
// Parsers for the value syntaxes of the daemon configuration. Unlike the Rust
// daemon (which turned "12 GB?" into a silent 50 GiB), every malformed value
// throws config_error saying what was expected.
//   size      "64GiB", "1.5 GiB", "512MiB", "100MB", "4096" (bytes), "4096B";
//             binary units KiB MiB GiB TiB (also K M G T), decimal kB MB GB TB
//   duration  "500ms", "30s", "5m", "2h", "1d", a bare number = seconds
//   listen    "unix:///absolute/path.sock" or a numeric "IP:port" / "[v6]:port";
//             port 0 = any free port (the daemon logs the one it got)
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace cuzk::service {

uint64_t parse_size(std::string_view text);
std::chrono::milliseconds parse_duration(std::string_view text);

struct listen_address_t {
  bool is_unix = false;
  std::string path;      // unix: the socket file
  std::string host;      // tcp: numeric IP (brackets removed for IPv6)
  uint16_t port = 0;
  bool is_loopback() const;
  std::string grpc_target() const;  // what grpc::ServerBuilder / CreateChannel take
};

listen_address_t parse_listen_address(std::string_view text);

// unix://$XDG_RUNTIME_DIR/cuzk.sock when that directory is set, else
// unix:///tmp/cuzk-<uid>.sock: per user, so two users on a host never share a daemon.
std::string default_listen_address();

// Human-readable size for logs and reports ("1.50 GiB").
std::string format_size(uint64_t bytes);

}  // namespace cuzk::service
