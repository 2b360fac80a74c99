#include "service/address_range_t.hpp"

#include <arpa/inet.h>
#include <fmt/core.h>

#include <charconv>
#include <cstring>

#include "service/config_error.hpp"

namespace cuzk::service {
namespace {

// The address bytes of a peer as the range family sees them: an IPv4-mapped
// IPv6 address is its IPv4 part.
std::optional<std::pair<int, std::array<uint8_t, 16>>> peer_bytes(const sockaddr* sa) {
  std::array<uint8_t, 16> b{};
  if (sa->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    std::memcpy(b.data(), &in->sin_addr, 4);
    return std::pair{AF_INET, b};
  }
  if (sa->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
      std::memcpy(b.data(), in6->sin6_addr.s6_addr + 12, 4);
      return std::pair{AF_INET, b};
    }
    std::memcpy(b.data(), in6->sin6_addr.s6_addr, 16);
    return std::pair{AF_INET6, b};
  }
  return std::nullopt;
}

bool prefix_equal(const std::array<uint8_t, 16>& a, const std::array<uint8_t, 16>& b, unsigned prefix) {
  const unsigned whole = prefix / 8, rest = prefix % 8;
  if (std::memcmp(a.data(), b.data(), whole) != 0) return false;
  if (rest == 0) return true;
  const uint8_t mask = uint8_t(0xff << (8 - rest));
  return (a[whole] & mask) == (b[whole] & mask);
}

}  // namespace

address_range_t address_range_t::parse(std::string_view text) {
  const size_t slash = text.find('/');
  const std::string host(text.substr(0, slash));
  address_range_t r;
  if (inet_pton(AF_INET, host.c_str(), r.bytes_.data()) == 1) {
    r.family_ = AF_INET;
    r.prefix_ = 32;
  } else if (inet_pton(AF_INET6, host.c_str(), r.bytes_.data()) == 1) {
    r.family_ = AF_INET6;
    r.prefix_ = 128;
  } else {
    throw config_error(fmt::format("'{}' is not an address range: '{}' is not a numeric IPv4 or IPv6 address "
                                   "(expected e.g. \"127.0.0.1/32\", \"10.0.0.0/8\" or \"::1/128\")",
                                   text, host));
  }
  if (slash != std::string_view::npos) {
    const std::string_view p = text.substr(slash + 1);
    const unsigned max = r.prefix_;
    unsigned v = 0;
    auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
    if (p.empty() || ec != std::errc() || end != p.data() + p.size() || v > max) {
      throw config_error(fmt::format("'{}' is not an address range: prefix length '{}' is not a number in 0..{}",
                                     text, p, max));
    }
    r.prefix_ = v;
  }
  // Host bits are cleared rather than refused: "10.1.2.3/8" plainly means 10.0.0.0/8.
  std::array<uint8_t, 16> net{};
  for (unsigned i = 0; i < 16; ++i) {
    const unsigned bits = r.prefix_ > 8 * i ? std::min(8u, r.prefix_ - 8 * i) : 0;
    net[i] = bits == 0 ? 0 : uint8_t(r.bytes_[i] & uint8_t(0xff << (8 - bits)));
  }
  r.bytes_ = net;
  return r;
}

bool address_range_t::contains(const sockaddr* peer) const {
  const auto p = peer_bytes(peer);
  return p && p->first == family_ && prefix_equal(p->second, bytes_, prefix_);
}

bool address_range_t::is_loopback() const {
  if (family_ == AF_INET) return prefix_ >= 8 && bytes_[0] == 127;
  static const std::array<uint8_t, 16> one = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  return prefix_ == 128 && bytes_ == one;
}

std::string address_range_t::text() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(family_, bytes_.data(), buf, sizeof(buf));
  return fmt::format("{}/{}", buf, prefix_);
}

std::vector<std::string> default_allow_list() { return {"127.0.0.0/8", "::1/128"}; }

std::vector<address_range_t> parse_allow_list(const std::vector<std::string>& texts) {
  if (texts.empty()) {
    throw config_error("the list is empty, so no client could connect; allow everyone explicitly with "
                       "[\"0.0.0.0/0\", \"::/0\"] if that is meant");
  }
  std::vector<address_range_t> out;
  for (const auto& t : texts) out.push_back(address_range_t::parse(t));
  return out;
}

bool allowed(const std::vector<address_range_t>& ranges, const sockaddr* peer) {
  for (const auto& r : ranges) {
    if (r.contains(peer)) return true;
  }
  return false;
}

std::optional<sockaddr_storage> numeric_address(std::string_view host) {
  sockaddr_storage ss{};
  const std::string h(host);
  auto* in = reinterpret_cast<sockaddr_in*>(&ss);
  auto* in6 = reinterpret_cast<sockaddr_in6*>(&ss);
  if (inet_pton(AF_INET, h.c_str(), &in->sin_addr) == 1) {
    in->sin_family = AF_INET;
    return ss;
  }
  if (inet_pton(AF_INET6, h.c_str(), &in6->sin6_addr) == 1) {
    in6->sin6_family = AF_INET6;
    return ss;
  }
  return std::nullopt;
}

std::optional<sockaddr_storage> grpc_peer_address(std::string_view peer) {
  std::string_view rest;
  if (peer.rfind("ipv4:", 0) == 0 || peer.rfind("ipv6:", 0) == 0) {
    rest = peer.substr(5);
  } else {
    return std::nullopt;
  }
  // "%2F"-style escapes do not occur in numeric addresses; strip the port.
  const size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view host = rest.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return numeric_address(host);
}

std::string address_text(const sockaddr* peer) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (peer->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(peer);
    inet_ntop(AF_INET, &in->sin_addr, buf, sizeof(buf));
    return fmt::format("{}:{}", buf, ntohs(in->sin_port));
  }
  if (peer->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(peer);
    inet_ntop(AF_INET6, &in6->sin6_addr, buf, sizeof(buf));
    return fmt::format("[{}]:{}", buf, ntohs(in6->sin6_port));
  }
  return fmt::format("(address family {})", peer->sa_family);
}

}  // namespace cuzk::service
