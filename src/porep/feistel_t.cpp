#include "porep/feistel_t.hpp"

#include "porep/blake2b.hpp"

namespace cuzk::porep {

feistel_t::feistel_t(std::uint64_t n, const std::array<std::uint64_t, 4>& keys) : n_(n), keys_(keys) {
  // smallest k >= 1 with 4^k >= n
  unsigned k = 1;
  while (k < 32 && (std::uint64_t(1) << (2 * k)) < n) ++k;
  half_bits_ = k;
  right_mask_ = (std::uint64_t(1) << k) - 1;
  left_mask_ = right_mask_ << k;
}

std::uint64_t feistel_t::round_function(std::uint64_t right, std::uint64_t key) const {
  std::array<std::uint8_t, 16> data;
  for (int i = 0; i < 8; ++i) {
    data[i] = std::uint8_t(right >> (56 - 8 * i));
    data[8 + i] = std::uint8_t(key >> (56 - 8 * i));
  }
  auto h = blake2b_512(data);
  std::uint64_t r = 0;
  for (int i = 0; i < 8; ++i) r = r << 8 | h[i];
  return r & right_mask_;
}

std::uint64_t feistel_t::encode(std::uint64_t x) const {
  std::uint64_t left = (x & left_mask_) >> half_bits_;
  std::uint64_t right = x & right_mask_;
  for (int i = 0; i < 3; ++i) {
    std::uint64_t next_right = left ^ round_function(right, keys_[i]);
    left = right;
    right = next_right;
  }
  return left << half_bits_ | right;
}

std::uint64_t feistel_t::permute(std::uint64_t x) const {
  std::uint64_t y = encode(x);
  while (y >= n_) y = encode(y);
  return y;
}

}  // namespace cuzk::porep
