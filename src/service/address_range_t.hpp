#pragma once
// One entry of `[daemon] allow`: an IPv4 or IPv6 network in CIDR form
// ("127.0.0.1/32", "10.0.0.0/8", "::1/128"; a bare address is one host).
// An IPv4-mapped IPv6 peer (::ffff:a.b.c.d, what a dual-stack [::] listener
// reports for IPv4 clients) matches the IPv4 ranges, so "127.0.0.0/8" means
// the same on 0.0.0.0 and on [::].
#include <netinet/in.h>
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::service {

class address_range_t {
 public:
  // Throws config_error naming the text and what is wrong with it.
  static address_range_t parse(std::string_view text);

  bool contains(const sockaddr* peer) const;
  bool is_loopback() const;  // every address in it is a loopback address
  std::string text() const;  // canonical "addr/prefix"

 private:
  int family_ = AF_INET;
  std::array<uint8_t, 16> bytes_{};  // network, host bits zero; IPv4 uses 4
  unsigned prefix_ = 32;
};

// The ranges of `[daemon] allow` when the key is absent: loopback only.
std::vector<std::string> default_allow_list();
std::vector<address_range_t> parse_allow_list(const std::vector<std::string>& texts);
bool allowed(const std::vector<address_range_t>& ranges, const sockaddr* peer);
// "127.0.0.1", "::1" (no port), or nullopt when it is not a numeric address.
std::optional<sockaddr_storage> numeric_address(std::string_view host);
// The address of a gRPC peer string ("ipv4:1.2.3.4:5", "ipv6:[::1]:5");
// nullopt for any other transport ("unix:", "fd:").
std::optional<sockaddr_storage> grpc_peer_address(std::string_view peer);
std::string address_text(const sockaddr* peer);  // "1.2.3.4:5" / "[::1]:5"

}  // namespace cuzk::service
