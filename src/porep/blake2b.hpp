#pragma once
// BLAKE2b-512, unkeyed (RFC 7693). Used only by the Feistel round function of
// the expander graph (rust-fil-proofs storage-proofs-core crypto/feistel.rs),
// which hashes 16 bytes, so there is no streaming interface.
#include <array>
#include <cstdint>
#include <span>

namespace cuzk::porep {

std::array<std::uint8_t, 64> blake2b_512(std::span<const std::uint8_t> message);

}  // namespace cuzk::porep
