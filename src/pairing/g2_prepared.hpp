#pragma once
// The Miller-loop lines of one G2 point, computed once and replayed against any
// number of G1 points. A verifier prepares its fixed G2 points (gamma, delta of a
// verifying key) once; a pairing of fresh points prepares on the fly. The lines
// depend only on Q and on the loop parameter, never on P.
#include <array>
#include <bit>

#include "ec/curves.hpp"

namespace cuzk::pairing {

// The optimal ate loop runs over the bits of |x| = 0xd201000000010000 below the top one:
// one doubling per bit and one addition per set bit (Hamming weight 6).
inline constexpr uint64_t loop_param = ec::bls_x_abs;
inline constexpr size_t n_loop_bits = std::bit_width(loop_param) - 1;  // 63
inline constexpr size_t n_lines = n_loop_bits + std::popcount(loop_param) - 1;  // 68

// A line through points of the twist, evaluated at P = (xP, yP) in E(Fp) and
// scaled by Fp2 factors and by w^3 (all in proper subfields, so the final
// exponentiation removes them):
//   l(P) = c0 + (cx * xP) v + (cy * yP) v w,
// the sparse shape fp12_t::mul_by_014 consumes.
struct line_t {
  ff::fp2_t c0, cx, cy;
};

class g2_prepared_t {
 public:
  // The point at infinity: contributes 1 to any Miller loop.
  g2_prepared_t() = default;
  explicit g2_prepared_t(const ec::g2_affine_t& q);

  bool is_inf() const { return inf_; }
  // In loop order: for each bit, its doubling line, then its addition line if set.
  const std::array<line_t, n_lines>& lines() const { return lines_; }

 private:
  std::array<line_t, n_lines> lines_{};
  bool inf_ = true;
};

}  // namespace cuzk::pairing
