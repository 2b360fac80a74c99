#pragma once
// Batched equality, after bellperson gadgets/multieq.rs: several
// "lhs == rhs" claims of n bits each are packed into one row
// (sum 2^shift_k lhs_k) * 1 = (sum 2^shift_k rhs_k) while the shifts stay
// under Fr's 254-bit capacity. A flush happens when used + n >= 254 (before
// adding) and once at the end (flush()), so the rows land exactly where
// bellperson's do: after the booleanity rows of the addmany that triggers
// them. One multi_eq_t lives per SHA-256 compression.
#include <array>
#include <string>

#include "gadgets/boolean.hpp"

namespace cuzk::gadgets {

// 2^k for k < 256, built once.
inline const fr_t& pow2_fr(std::size_t k) {
  static const std::array<fr_t, 256> table = [] {
    std::array<fr_t, 256> t;
    t[0] = fr_t::one();
    for (std::size_t i = 1; i < t.size(); ++i) t[i] = t[i - 1] + t[i - 1];
    return t;
  }();
  return table[k];
}

template <r1cs::constraint_system CS>
class multi_eq_t {
 public:
  static constexpr std::size_t capacity = 254;
  static constexpr bool builds_rows = r1cs::builds_rows_v<CS>;

  explicit multi_eq_t(CS& cs) : cs_(cs) {}
  multi_eq_t(const multi_eq_t&) = delete;
  multi_eq_t& operator=(const multi_eq_t&) = delete;

  CS& cs() { return cs_; }

  // Claims lhs == rhs, both below 2^num_bits. `add_lhs(lc, shift)` and
  // `add_rhs(lc, shift)` append their side multiplied by 2^shift.
  template <class L, class R>
  void enforce_equal(std::size_t num_bits, L&& add_lhs, R&& add_rhs) {
    if (capacity <= used_ + num_bits) flush();
    // A values-only system (CS::builds_rows == false, the compiled PoRep
    // path) never reads the rows: building these sums (32 terms per operand)
    // was wasted work there.
    if constexpr (builds_rows) {
      add_lhs(lhs_, used_);
      add_rhs(rhs_, used_);
    }
    used_ += num_bits;
  }

  // Emits the pending row, if any. Call at the end of the compression.
  void flush() {
    if (used_ == 0) return;
    std::size_t n = ops_;
    cs_.enforce([n] { return "multieq " + std::to_string(n); },
                [&](linear_combination_t lc) { return lc += lhs_, lc; },
                [&](linear_combination_t lc) { return lc + cs_.one(); },
                [&](linear_combination_t lc) { return lc += rhs_, lc; });
    lhs_ = {};
    rhs_ = {};
    used_ = 0;
    ++ops_;
  }

 private:
  CS& cs_;
  std::size_t ops_ = 0;
  std::size_t used_ = 0;
  linear_combination_t lhs_, rhs_;
};

}  // namespace cuzk::gadgets
