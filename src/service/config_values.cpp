#include "service/config_values.hpp"

#include <arpa/inet.h>
#include <fmt/core.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "service/config_error.hpp"

namespace cuzk::service {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits "1.5 GiB" into a non-negative number and its unit; the number must be
// plain decimal (no sign, exponent, hex, inf or nan).
std::pair<double, std::string_view> split_number(std::string_view text, std::string_view what) {
  std::string_view s = trim(text);
  size_t i = 0;
  bool digits = false, dot = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      digits = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!digits) throw config_error(fmt::format("{} '{}': expected a number followed by an optional unit", what, text));
  double value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + i, value);
  if (ec != std::errc() || end != s.data() + i || !std::isfinite(value)) {
    throw config_error(fmt::format("{} '{}': the number does not parse", what, text));
  }
  return {value, trim(s.substr(i))};
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

}  // namespace

uint64_t parse_size(std::string_view text) {
  struct unit_t {
    std::string_view name;
    double bytes;
  };
  static constexpr std::array<unit_t, 14> units{{
      {"", 1.0}, {"b", 1.0},
      {"k", 0x1p10}, {"kib", 0x1p10}, {"m", 0x1p20}, {"mib", 0x1p20},
      {"g", 0x1p30}, {"gib", 0x1p30}, {"t", 0x1p40}, {"tib", 0x1p40},
      {"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
  }};
  auto [value, unit] = split_number(text, "size");
  for (const auto& u : units) {
    if (!iequals(unit, u.name)) continue;
    double bytes = std::round(value * u.bytes);
    if (bytes >= 0x1p64) throw config_error(fmt::format("size '{}': too large", text));
    if (u.bytes == 1.0 && value != std::floor(value)) {
      throw config_error(fmt::format("size '{}': a byte count must be a whole number", text));
    }
    return static_cast<uint64_t>(bytes);
  }
  throw config_error(fmt::format("size '{}': unknown unit '{}' (use B, KiB, MiB, GiB, TiB, kB, MB, GB or TB)", text, unit));
}

std::chrono::milliseconds parse_duration(std::string_view text) {
  struct unit_t {
    std::string_view name;
    double ms;
  };
  static constexpr std::array<unit_t, 6> units{{
      {"", 1e3}, {"ms", 1.0}, {"s", 1e3}, {"m", 60e3}, {"h", 3600e3}, {"d", 86400e3},
  }};
  auto [value, unit] = split_number(text, "duration");
  for (const auto& u : units) {
    if (unit != u.name) continue;  // case matters: "M" is not a unit of time here
    double ms = std::round(value * u.ms);
    if (ms > 1e15) throw config_error(fmt::format("duration '{}': too large", text));
    return std::chrono::milliseconds(static_cast<int64_t>(ms));
  }
  throw config_error(fmt::format("duration '{}': unknown unit '{}' (use ms, s, m, h or d)", text, unit));
}

bool listen_address_t::is_loopback() const {
  if (is_unix) return true;
  return host == "::1" || host.rfind("127.", 0) == 0;
}

std::string listen_address_t::grpc_target() const {
  if (is_unix) return "unix://" + path;
  if (host.find(':') != std::string::npos) return fmt::format("[{}]:{}", host, port);
  return fmt::format("{}:{}", host, port);
}

listen_address_t parse_listen_address(std::string_view text) {
  listen_address_t a;
  std::string_view s = trim(text);
  if (s.rfind("unix:", 0) == 0) {
    std::string_view path = s.substr(5);
    if (path.rfind("//", 0) == 0) path.remove_prefix(2);
    if (path.empty() || path.front() != '/') {
      throw config_error(fmt::format("listen address '{}': a unix socket needs an absolute path (unix:///run/cuzk.sock)", text));
    }
    // sockaddr_un.sun_path holds 108 bytes including the terminator.
    if (path.size() > 107) throw config_error(fmt::format("listen address '{}': socket path longer than 107 bytes", text));
    a.is_unix = true;
    a.path = std::string(path);
    return a;
  }
  size_t colon = s.rfind(':');
  if (colon == std::string_view::npos) {
    throw config_error(fmt::format("listen address '{}': expected unix:///path or IP:port", text));
  }
  std::string host(s.substr(0, colon));
  std::string_view port_text = s.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  unsigned port = 0;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port > 65535) {
    throw config_error(
        fmt::format("listen address '{}': port '{}' is not a number in 0..65535 (0 = any free port)", text, port_text));
  }
  std::array<unsigned char, 16> buf{};
  if (inet_pton(AF_INET, host.c_str(), buf.data()) != 1 && inet_pton(AF_INET6, host.c_str(), buf.data()) != 1) {
    throw config_error(fmt::format("listen address '{}': host '{}' is not a numeric IPv4 or IPv6 address", text, host));
  }
  a.host = host;
  a.port = static_cast<uint16_t>(port);
  return a;
}

std::string default_listen_address() {
  if (const char* dir = std::getenv("XDG_RUNTIME_DIR"); dir != nullptr && dir[0] == '/') {
    return fmt::format("unix://{}/cuzk.sock", dir);
  }
  return fmt::format("unix:///tmp/cuzk-{}.sock", ::getuid());
}

std::string format_size(uint64_t bytes) {
  static constexpr std::array<const char*, 5> names{"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  size_t i = 0;
  while (v >= 1024.0 && i + 1 < names.size()) {
    v /= 1024.0;
    ++i;
  }
  return i == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.2f} {}", v, names[i]);
}

}  // namespace cuzk::service
