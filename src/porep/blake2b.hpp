#pragma once
// BLAKE2b (RFC 7693). Unkeyed 512-bit for the Feistel round function of the
// expander graph (rust-fil-proofs storage-proofs-core crypto/feistel.rs, 16
// bytes hashed); keyed with a 32-byte digest for the synthetic-PoRep ChaCha20
// keys (storage-proofs-porep stacked/vanilla/challenges.rs, 64 bytes hashed).
// Messages are short, so there is no streaming interface.
#include <array>
#include <cstdint>
#include <span>

namespace cuzk::porep {

std::array<std::uint8_t, 64> blake2b_512(std::span<const std::uint8_t> message);

// out.size() (1..64) digest bytes of `message`, keyed with `key` (0..64 bytes;
// empty = unkeyed). Throws std::invalid_argument for other sizes.
void blake2b(std::span<std::uint8_t> out, std::span<const std::uint8_t> message,
             std::span<const std::uint8_t> key = {});

}  // namespace cuzk::porep
