#pragma once
// BLS12-381 base field: p = 0x1a0111ea...ffffaaab, 381 bits, 6 limbs.
#include "ff/mont_field.hpp"

namespace cuzk::ff {

struct fp_params {
  static constexpr size_t n_limbs = 6;
  static constexpr limbs_t<6> modulus = {
      0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
      0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
  static constexpr uint64_t nonresidue = 2;  // p = 3 mod 8, so 2 is a non-square
};

using fp_t = mont_field<fp_params>;
static_assert(sizeof(fp_t) == 48);
static_assert(fp_t::bits == 381 && fp_t::n_bytes == 48);

}  // namespace cuzk::ff
