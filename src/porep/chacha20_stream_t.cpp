#include "porep/chacha20_stream_t.hpp"

#include <stdexcept>

#include "porep/chacha.hpp"

namespace cuzk::porep {

namespace {

constexpr std::uint64_t max_blocks = std::uint64_t(1) << 32;

std::uint32_t le32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

}  // namespace

chacha20_stream_t::chacha20_stream_t(std::span<const std::uint8_t, 32> key, std::span<const std::uint8_t, 12> nonce) {
  // "expand 32-byte k"
  input_[0] = 0x61707865; input_[1] = 0x3320646e; input_[2] = 0x79622d32; input_[3] = 0x6b206574;
  for (int i = 0; i < 8; ++i) input_[4 + i] = le32(key.data() + 4 * i);
  for (int i = 0; i < 3; ++i) input_[13 + i] = le32(nonce.data() + 4 * i);
}

void chacha20_stream_t::seek(std::uint64_t offset) {
  if (offset / 64 >= max_blocks) throw std::out_of_range("chacha20: seek past the 2^32-block keystream");
  offset_ = offset;
}

void chacha20_stream_t::load_block() {
  const std::uint64_t b = offset_ / 64;
  if (b == loaded_) return;
  if (b >= max_blocks) throw std::out_of_range("chacha20: keystream exhausted (2^32 blocks)");
  auto in = input_;
  in[12] = std::uint32_t(b);
  const auto x = chacha_block(in, 20);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 4; ++j) block_[4 * i + j] = std::uint8_t(x[i] >> (8 * j));
  loaded_ = b;
}

void chacha20_stream_t::read(std::span<std::uint8_t> out) {
  for (auto& byte : out) {
    load_block();
    byte = block_[offset_ % 64];
    ++offset_;
  }
}

}  // namespace cuzk::porep
