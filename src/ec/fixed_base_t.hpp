#pragma once
// Fixed-base scalar multiplication with a window table (Brickell, Gordon,
// McCurley and Wilson's idea in its simplest form): table[w][d] = d * 2^(c w) * B,
// so k * B is one mixed addition per c-bit window of k. With c = 8 a G1
// multiplication is 32 mixed additions instead of ~255 doublings and ~128
// additions; Groth16 setup does millions of them against two bases.
#include <span>
#include <vector>

#include "ec/jacobian_t.hpp"

namespace cuzk::ec {

template <class C>
class fixed_base_t {
 public:
  static constexpr size_t window_bits = 8;
  static constexpr size_t windows = 256 / window_bits;

  explicit fixed_base_t(const affine_t<C>& base) {
    std::vector<jacobian_t<C>> t(windows << window_bits);
    jacobian_t<C> w = jacobian_t<C>::from_affine(base);
    for (size_t i = 0; i < windows; ++i) {
      t[i << window_bits] = jacobian_t<C>::infinity();
      for (size_t d = 1; d < (size_t(1) << window_bits); ++d) t[(i << window_bits) + d] = t[(i << window_bits) + d - 1] + w;
      for (size_t k = 0; k < window_bits; ++k) w = w.dbl();
    }
    table_ = batch_to_affine(std::span<const jacobian_t<C>>(t));
  }

  // k is a canonical little-endian 256-bit scalar.
  jacobian_t<C> mul(const ff::limbs_t<4>& k) const {
    jacobian_t<C> acc = jacobian_t<C>::infinity();
    for (size_t i = 0; i < windows; ++i) {
      size_t d = (k[i * window_bits / 64] >> (i * window_bits % 64)) & ((1u << window_bits) - 1);
      if (d) acc = acc.add_mixed(table_[(i << window_bits) + d]);
    }
    return acc;
  }
  template <class Scalar>
  jacobian_t<C> mul(const Scalar& s) const { return mul(s.to_canonical()); }

 private:
  std::vector<affine_t<C>> table_;
};

}  // namespace cuzk::ec
