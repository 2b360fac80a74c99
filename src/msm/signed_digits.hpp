#pragma once
// Signed-digit windows for Pippenger: a scalar s < r is written as
// s = sum_w d_w 2^(c w) with d_w in [-2^(c-1), 2^(c-1) - 1]. Window w holds its
// raw c bits plus a carry of 1 when the window below reached 2^(c-1) (and was
// lowered by 2^c). Halving the digit range halves the buckets per window, and a
// negative digit costs nothing since -(x, y) = (x, -y).
//
// The carry into window w depends only on the windows below: a window passes a
// carry through exactly when its bits are 2^(c-1) - 1, otherwise it creates one
// (bits >= 2^(c-1)) or absorbs it. So digit(s, w) scans down to the first window
// that decides, usually one step, and any window can be recoded on its own: no
// n x W digit table (1 GiB at 2^25 points) and windows can go to different threads.
#include <cstdint>

#include "ff/fr.hpp"

namespace cuzk::msm {

// Canonical (non-Montgomery) scalar, little-endian 64-bit limbs, value < r.
using scalar_limbs_t = ff::limbs_t<4>;

class signed_digits_t {
 public:
  static constexpr unsigned min_bits = 2;
  static constexpr unsigned max_bits = 20;

  // c in [min_bits, max_bits].
  explicit constexpr signed_digits_t(unsigned c)
      : c_(c), mask_((uint64_t(1) << c) - 1), half_(uint64_t(1) << (c - 1)) {
    windows_ = (unsigned(ff::fr_t::bits) + c - 1) / c;
    // The top window of the largest scalar r - 1, plus a carry, must stay below
    // 2^(c-1) or the recoding needs one more window for the carry out.
    scalar_limbs_t r_minus_1 = ff::fr_t::modulus;
    r_minus_1[0] -= 1;
    if (bits(r_minus_1, c * (windows_ - 1)) + 1 >= half_) ++windows_;
  }

  constexpr unsigned window_bits() const { return c_; }
  constexpr unsigned windows() const { return windows_; }
  // Buckets per window: one per digit magnitude 1 .. 2^(c-1).
  constexpr size_t buckets() const { return size_t(half_); }

  constexpr int digit(const scalar_limbs_t& s, unsigned w) const {
    uint64_t v = bits(s, c_ * w);
    for (unsigned j = w; j-- > 0;) {
      uint64_t u = bits(s, c_ * j);
      if (u != half_ - 1) {
        v += u >= half_;
        break;
      }
    }
    return v >= half_ ? int(v) - int(mask_ + 1) : int(v);
  }

 private:
  // Bits [pos, pos + c) of s; zero past bit 255.
  constexpr uint64_t bits(const scalar_limbs_t& s, unsigned pos) const {
    if (pos >= 256) return 0;
    unsigned limb = pos / 64, sh = pos % 64;
    uint64_t v = s[limb] >> sh;
    if (sh + c_ > 64 && limb + 1 < 4) v |= s[limb + 1] << (64 - sh);
    return v & mask_;
  }

  unsigned c_;
  unsigned windows_ = 0;
  uint64_t mask_;
  uint64_t half_;
};

}  // namespace cuzk::msm
