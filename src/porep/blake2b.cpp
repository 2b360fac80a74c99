#include "porep/blake2b.hpp"

#include <bit>
#include <cstring>
#include <stdexcept>

namespace cuzk::porep {

namespace {

constexpr std::array<std::uint64_t, 8> iv = {
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

constexpr std::uint8_t sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

inline void mix(std::uint64_t* v, int a, int b, int c, int d, std::uint64_t x, std::uint64_t y) {
  v[a] = v[a] + v[b] + x; v[d] = std::rotr(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];     v[b] = std::rotr(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y; v[d] = std::rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];     v[b] = std::rotr(v[b] ^ v[c], 63);
}

void compress(std::array<std::uint64_t, 8>& h, const std::uint8_t* block, std::uint64_t counter, bool last) {
  std::uint64_t m[16];
  for (int i = 0; i < 16; ++i) {
    m[i] = 0;
    for (int b = 0; b < 8; ++b) m[i] |= std::uint64_t(block[8 * i + b]) << (8 * b);
  }
  std::uint64_t v[16];
  for (int i = 0; i < 8; ++i) v[i] = h[i], v[i + 8] = iv[i];
  v[12] ^= counter;  // message lengths stay far below 2^64, so the high counter word is 0
  if (last) v[14] = ~v[14];
  for (const auto& s : sigma) {
    mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[i + 8];
}

}  // namespace

void blake2b(std::span<std::uint8_t> out, std::span<const std::uint8_t> message,
             std::span<const std::uint8_t> key) {
  if (out.empty() || out.size() > 64 || key.size() > 64)
    throw std::invalid_argument("blake2b: digest must be 1..64 bytes and key 0..64 bytes");
  auto h = iv;
  // Parameter block word 0: depth 1, fanout 1, key length, digest length.
  h[0] ^= 0x01010000 ^ (std::uint64_t(key.size()) << 8) ^ out.size();
  // A key is one zero-padded block in front of the message (RFC 7693 §3.3);
  // it is the last block only when the message is empty.
  std::uint8_t block[128] = {};
  std::uint64_t counter = 0;
  std::size_t off = 0;
  if (!key.empty()) {
    std::memcpy(block, key.data(), key.size());
    counter = 128;
    compress(h, block, counter, message.empty());
  }
  if (key.empty() || !message.empty()) {
    while (message.size() - off > 128) {
      compress(h, message.data() + off, counter + off + 128, false);
      off += 128;
    }
    std::memset(block, 0, sizeof block);
    if (message.size() > off) std::memcpy(block, message.data() + off, message.size() - off);
    compress(h, block, counter + message.size(), true);
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::uint8_t(h[i / 8] >> (8 * (i % 8)));
}

std::array<std::uint8_t, 64> blake2b_512(std::span<const std::uint8_t> message) {
  std::array<std::uint8_t, 64> out;
  blake2b(out, message);
  return out;
}

}  // namespace cuzk::porep
