#pragma once
// ChaCha20 keystream, IETF variant (RFC 8439 §2.4: 32-bit block counter in
// word 12, 96-bit nonce in words 13-15), with byte-granular seeking, as
// RustCrypto's `chacha20::ChaCha20` gives it. Synthetic PoRep draws its
// challenges and their selection from two such streams (rust-fil-proofs
// storage-proofs-porep stacked/vanilla/challenges.rs, module `synthetic`).
#include <array>
#include <cstdint>
#include <span>

namespace cuzk::porep {

class chacha20_stream_t {
 public:
  chacha20_stream_t(std::span<const std::uint8_t, 32> key, std::span<const std::uint8_t, 12> nonce);

  // Next keystream byte is byte `offset` of the stream. Throws
  // std::out_of_range past the 2^32-block (256 GiB) stream, as upstream's
  // try_seek errors.
  void seek(std::uint64_t offset);
  // The next out.size() keystream bytes (what apply_keystream XORs in).
  void read(std::span<std::uint8_t> out);

 private:
  void load_block();
  std::array<std::uint32_t, 16> input_{};  // word 12 is the block counter
  std::array<std::uint8_t, 64> block_{};
  std::uint64_t offset_ = 0;               // absolute byte position
  std::uint64_t loaded_ = ~std::uint64_t(0);  // block index held in block_
};

}  // namespace cuzk::porep
