#pragma once
// Reads bincode 1.x with its default options (FILECOIN_FORMATS.md §1):
// little-endian fixed-width integers, u64 lengths, u32 enum tags, [u8; 32] as
// 32 raw bytes. Every read names the field it is for; a short input or an
// impossible length throws porep::vanilla_format_error naming that field and
// the byte offset. Shared by the C1 (c1_bincode) and PoSt (post_bincode) readers.
#include <fmt/format.h>

#include <cstdint>
#include <span>
#include <string>

#include "ff/fr.hpp"
#include "porep/vanilla_format_error.hpp"

namespace cuzk::filecoin {

class bincode_reader_t {
 public:
  explicit bincode_reader_t(std::span<const std::uint8_t> b) : b_(b) {}
  std::size_t at() const { return at_; }
  std::size_t left() const { return b_.size() - at_; }

  std::uint64_t uint(std::size_t n, const std::string& where) {
    need(n, where);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t(b_[at_ + i]) << (8 * i);
    at_ += n;
    return v;
  }
  std::uint64_t u64(const std::string& where) { return uint(8, where); }
  std::uint64_t u32(const std::string& where) { return uint(4, where); }

  // The next 32 bytes, unchecked (a [u8; 32] or a hash domain value).
  std::span<const std::uint8_t, 32> bytes32(const std::string& where) {
    need(32, where);
    std::span<const std::uint8_t, 32> v(b_.data() + at_, 32);
    at_ += 32;
    return v;
  }

  // The next 32 bytes as a hash domain value: a canonical little-endian
  // field element (Poseidon and trimmed SHA-256 values alike).
  ff::fr_t domain(const std::string& where) {
    const std::size_t at = at_;
    const auto x = ff::fr_t::from_bytes_le(bytes32(where));
    if (!x) throw porep::vanilla_format_error(where, fmt::format("not a canonical field element (at byte {})", at));
    return *x;
  }

  // A Vec length no larger than `max` nor than the bytes left (every element
  // takes at least one byte), so a corrupt count is refused before anything
  // is allocated for it.
  std::uint64_t len(const std::string& where, std::uint64_t max) {
    const std::uint64_t n = u64(where);
    if (n > max || n > left())
      throw porep::vanilla_format_error(where,
                                        fmt::format("a length of {} at byte {} (corrupt or truncated)", n, at_ - 8));
    return n;
  }

 private:
  void need(std::size_t n, const std::string& where) const {
    if (left() < n)
      throw porep::vanilla_format_error(where,
                                        fmt::format("truncated: {} bytes needed at byte {}, {} left", n, at_, left()));
  }
  std::span<const std::uint8_t> b_;
  std::size_t at_ = 0;
};

}  // namespace cuzk::filecoin
