#include "porep/chacha.hpp"

#include <bit>
#include <stdexcept>

namespace cuzk::porep {

namespace {

inline void quarter_round(std::array<std::uint32_t, 16>& x, int a, int b, int c, int d) {
  x[a] += x[b]; x[d] = std::rotl(x[d] ^ x[a], 16);
  x[c] += x[d]; x[b] = std::rotl(x[b] ^ x[c], 12);
  x[a] += x[b]; x[d] = std::rotl(x[d] ^ x[a], 8);
  x[c] += x[d]; x[b] = std::rotl(x[b] ^ x[c], 7);
}

}  // namespace

std::array<std::uint32_t, 16> chacha_block(const std::array<std::uint32_t, 16>& input, unsigned rounds) {
  if (rounds % 2) throw std::invalid_argument("chacha_block: round count must be even");
  auto x = input;
  for (unsigned r = 0; r < rounds; r += 2) {
    quarter_round(x, 0, 4, 8, 12);
    quarter_round(x, 1, 5, 9, 13);
    quarter_round(x, 2, 6, 10, 14);
    quarter_round(x, 3, 7, 11, 15);
    quarter_round(x, 0, 5, 10, 15);
    quarter_round(x, 1, 6, 11, 12);
    quarter_round(x, 2, 7, 8, 13);
    quarter_round(x, 3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) x[i] += input[i];
  return x;
}

chacha8_rng_t::chacha8_rng_t(std::span<const std::uint8_t, 32> seed) {
  // "expand 32-byte k"
  input_[0] = 0x61707865; input_[1] = 0x3320646e; input_[2] = 0x79622d32; input_[3] = 0x6b206574;
  for (int i = 0; i < 8; ++i)
    input_[4 + i] = std::uint32_t(seed[4 * i]) | std::uint32_t(seed[4 * i + 1]) << 8 |
                    std::uint32_t(seed[4 * i + 2]) << 16 | std::uint32_t(seed[4 * i + 3]) << 24;
}

void chacha8_rng_t::refill() {
  block_ = chacha_block(input_, 8);
  if (++input_[12] == 0) ++input_[13];
  index_ = 0;
}

std::uint32_t chacha8_rng_t::next_u32() {
  if (index_ == 16) refill();
  return block_[index_++];
}

std::uint64_t chacha8_rng_t::next_u64() {
  std::uint64_t lo = next_u32();
  std::uint64_t hi = next_u32();
  return hi << 32 | lo;
}

}  // namespace cuzk::porep
