#pragma once
// ChaCha block function (RFC 8439 §2.3) with a caller-chosen round count, and
// ChaCha8Rng as rand_chacha 0.3 defines it, which the DRG parent sampling of
// rust-fil-proofs draws from (FILECOIN_POREP.md §4, §12.8).
#include <array>
#include <cstdint>
#include <span>

namespace cuzk::porep {

// Runs `rounds` rounds (20 for ChaCha20, 8 for ChaCha8; must be even) on the
// 16-word input state and adds the input back (RFC 8439 §2.3).
std::array<std::uint32_t, 16> chacha_block(const std::array<std::uint32_t, 16>& input, unsigned rounds);

// rand_chacha's ChaCha8Rng: key = the 32-byte seed as 8 LE words, a 64-bit
// block counter from 0 in words 12-13, stream 0 in words 14-15. Words come out
// in block order; next_u64 takes two consecutive words, low word first.
class chacha8_rng_t {
 public:
  explicit chacha8_rng_t(std::span<const std::uint8_t, 32> seed);
  std::uint32_t next_u32();
  std::uint64_t next_u64();

 private:
  void refill();
  std::array<std::uint32_t, 16> input_{};
  std::array<std::uint32_t, 16> block_{};
  unsigned index_ = 16;
};

}  // namespace cuzk::porep
