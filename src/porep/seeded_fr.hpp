#pragma once
// Seeded field elements for the synthetic sector models (PoSt, SnapDeals):
// trim(SHA-256(seed ‖ tag ‖ sector ‖ level ‖ index)), all u64 LE, the tag
// padded to 16 bytes. Below 2^254, so also a valid fr32 data node.
#include <array>
#include <cstdint>
#include <string_view>

#include "gadgets/sha256_native.hpp"
#include "porep/domain.hpp"

namespace cuzk::porep {

inline ff::fr_t prf_fr(std::uint64_t seed, std::string_view tag, std::uint64_t sector, std::uint64_t level = 0,
                       std::uint64_t index = 0) {
  std::array<std::uint8_t, 48> buf{};
  for (int i = 0; i < 8; ++i) {
    buf[i] = std::uint8_t(seed >> (8 * i));
    buf[24 + i] = std::uint8_t(sector >> (8 * i));
    buf[32 + i] = std::uint8_t(level >> (8 * i));
    buf[40 + i] = std::uint8_t(index >> (8 * i));
  }
  for (std::size_t i = 0; i < tag.size() && i < 16; ++i) buf[8 + i] = std::uint8_t(tag[i]);
  return fr_from_trimmed(gadgets::sha256(buf));
}

}  // namespace cuzk::porep
