#pragma once
// BLS12-381 scalar field: r = 0x73eda753...00000001, 255 bits, 4 limbs.
// r - 1 = 2^32 * odd, so radix-2 domains reach 2^32.
#include "ff/mont_field.hpp"

namespace cuzk::ff {

struct fr_params {
  static constexpr size_t n_limbs = 4;
  static constexpr limbs_t<4> modulus = {
      0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48};
  static constexpr uint64_t nonresidue = 7;  // 7 generates Fr^* (as in bellman and blst)
};

using fr_t = mont_field<fr_params>;
static_assert(sizeof(fr_t) == 32);
static_assert(fr_t::bits == 255 && fr_t::two_adicity == 32);

// Multiplicative generator of Fr^*, used for coset shifts.
inline constexpr uint64_t fr_generator = 7;

// A primitive 2^k-th root of unity, k <= 32: 7^((r-1)/2^k).
inline fr_t fr_root_of_unity(size_t log_n) {
  auto e = fr_t::modulus;
  e[0] -= 1;
  for (size_t i = 0; i < log_n; ++i) big_shr1(e);
  return fr_t::from_u64(fr_generator).pow(e);
}

}  // namespace cuzk::ff
