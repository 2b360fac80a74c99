#pragma once
// Domain values of the PoRep: 32 bytes holding the little-endian canonical
// encoding of an Fr element (FILECOIN_POREP.md §2). SHA-256 outputs become
// field elements by clearing the two top bits of byte 31 ("fr-safe" trim).
#include <array>
#include <cstdint>
#include <span>

#include "ff/fr.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::porep {

inline bytes32_t to_le_bytes(const ff::fr_t& x) {
  bytes32_t b;
  x.to_bytes_le(b);
  return b;
}

// byte[31] &= 0x3F, then read LE: the value is < 2^254 < r, so this never fails.
inline ff::fr_t fr_from_trimmed(std::span<const std::uint8_t, 32> digest) {
  bytes32_t b;
  for (int i = 0; i < 32; ++i) b[i] = digest[i];
  b[31] &= 0x3F;
  return *ff::fr_t::from_bytes_le(b);
}

// True when the canonical value is below 2^254 (SHA-derived values always are).
inline bool is_fr_safe(const ff::fr_t& x) { return (x.to_canonical()[3] >> 62) == 0; }

}  // namespace cuzk::porep
