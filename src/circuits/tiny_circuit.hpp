#pragma once
// A few dozen constraints that touch every feature a prover must get right:
// a cubic (x^3 + x + 5 = y, the classic first zk example), a boolean, a
// selection whose B side carries ONE and a negated variable (B density over
// inputs), and a chain of squarings u_{i+1} = u_i^2 + i that pins the output.
// Public inputs, in order: y, sel = bit ? x : y, u = u_rounds (u_0 = x).
#include <optional>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

using ff::fr_t;

class tiny_circuit {
 public:
  static constexpr size_t default_square_rounds = 24;

  // x = nullopt builds the circuit without a witness (keygen, shape).
  explicit tiny_circuit(std::optional<fr_t> x = fr_t::from_u64(3), bool bit = true,
                        size_t square_rounds = default_square_rounds);

  // The same circuit claiming a public y of our choosing: with a wrong y the
  // constraint "y = x^3 + x + 5" is the one that fails.
  tiny_circuit with_claimed_y(const fr_t& y) const;

  size_t num_constraints() const { return 5 + rounds_; }
  // Requires a witness.
  std::vector<fr_t> public_inputs() const;
  std::string description() const;

  template <r1cs::constraint_system CS>
  void synthesize(CS& cs) const;

 private:
  struct values_t {
    fr_t x, x2, x3, y, sel;
    std::vector<fr_t> u;  // u_0 .. u_rounds
  };
  values_t compute() const;  // witness values; requires x_

  std::optional<fr_t> x_;
  bool bit_;
  size_t rounds_;
  std::optional<fr_t> claimed_y_;
};

template <r1cs::constraint_system CS>
void tiny_circuit::synthesize(CS& cs) const {
  using r1cs::linear_combination_t;
  using r1cs::variable_t;
  std::optional<values_t> w;
  if constexpr (CS::needs_values) {
    if (x_) w = compute();
  }
  // val(f): a value callable reading f(values), nullopt without a witness.
  auto val = [&w](auto field) {
    return [&w, field]() -> std::optional<fr_t> {
      if (!w) return std::nullopt;
      return field(*w);
    };
  };
  auto lc_of = [](variable_t v) { return [v](linear_combination_t lc) { return lc + v; }; };
  auto zero = [](linear_combination_t lc) { return lc; };

  variable_t y = cs.alloc_input("y", val([](const values_t& v) { return v.y; }));
  variable_t sel = cs.alloc_input("sel", val([](const values_t& v) { return v.sel; }));
  variable_t u_out = cs.alloc_input("u", val([this](const values_t& v) { return v.u[rounds_]; }));
  variable_t x = cs.alloc("x", val([](const values_t& v) { return v.x; }));
  variable_t bit = cs.alloc("bit", [&]() -> std::optional<fr_t> {
    if (!w) return std::nullopt;
    return bit_ ? fr_t::one() : fr_t::zero();
  });

  variable_t x2 = cs.alloc("x2", val([](const values_t& v) { return v.x2; }));
  cs.enforce("x2 = x * x", lc_of(x), lc_of(x), lc_of(x2));
  variable_t x3 = cs.alloc("x3", val([](const values_t& v) { return v.x3; }));
  cs.enforce("x3 = x2 * x", lc_of(x2), lc_of(x), lc_of(x3));
  cs.enforce(
      "y = x^3 + x + 5", [&](linear_combination_t lc) { return lc + x3 + x + fr_t::from_u64(5) * cs.one(); },
      lc_of(cs.one()), lc_of(y));
  cs.enforce("bit is boolean", lc_of(bit), [&](linear_combination_t lc) { return lc + cs.one() - bit; }, zero);
  // sel = y + bit * (x - y)
  cs.enforce("sel = bit ? x : y", lc_of(bit), [&](linear_combination_t lc) { return lc + x - y; },
             [&](linear_combination_t lc) { return lc + sel - y; });

  r1cs::namespace_guard ns(cs, "squares");
  variable_t u = x;
  for (size_t i = 0; i < rounds_; ++i) {
    auto u_next = [&w, i]() -> std::optional<fr_t> {
      if (!w) return std::nullopt;
      return w->u[i + 1];
    };
    variable_t next = i + 1 == rounds_ ? u_out : cs.alloc([i] { return "u" + std::to_string(i + 1); }, u_next);
    auto name = [i] {
      return "u" + std::to_string(i + 1) + " = u" + std::to_string(i) + "^2 + " + std::to_string(i);
    };
    cs.enforce(name, lc_of(u), lc_of(u),
               [&, i, next](linear_combination_t lc) { return lc + next - fr_t::from_u64(i) * cs.one(); });
    u = next;
  }
}

}  // namespace cuzk::circuits
