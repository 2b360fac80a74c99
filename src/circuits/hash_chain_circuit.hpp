#pragma once
// `rounds` rounds of x_{i+1} = (x_i + k_i)^5 (see hash_chain_native.hpp), three
// constraints per round with t = x_i + k_i folded into the linear combinations:
//   t * t = t2,   t2 * t2 = t4,   t4 * t = x_{i+1}.
// Public inputs, in order: x_0 and x_rounds (the last product is written
// straight into the public input, so there are exactly 3 * rounds constraints,
// 3 inputs with ONE, and 3 * rounds - 1 aux variables).
#include <optional>
#include <string>
#include <vector>

#include "circuits/hash_chain_native.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

class hash_chain_circuit {
 public:
  static constexpr size_t constraints_per_round = 3;
  static constexpr size_t num_inputs = 3;  // ONE, x_0, x_rounds

  // x0 = nullopt builds the circuit without a witness (keygen, shape).
  explicit hash_chain_circuit(size_t rounds, std::optional<ff::fr_t> x0 = ff::fr_t::from_u64(1));

  // The most rounds whose proving system (3 * rounds circuit constraints plus
  // one x * 0 = 0 row per input) fits in `target` rows, so a power-of-two
  // target is exactly the evaluation-domain size: 2^16 gives 21844 rounds.
  static hash_chain_circuit from_constraints(size_t target, std::optional<ff::fr_t> x0 = ff::fr_t::from_u64(1));

  // The same circuit claiming a public output of our choosing: with a wrong
  // value the last round's final constraint is the one that fails.
  hash_chain_circuit with_claimed_output(const ff::fr_t& out) const;

  size_t rounds() const { return rounds_; }
  size_t num_constraints() const { return constraints_per_round * rounds_; }
  // {x_0, x_rounds}; O(rounds) multiplications. Requires a witness.
  std::vector<ff::fr_t> public_inputs() const;
  std::string description() const;

  template <r1cs::constraint_system CS>
  void synthesize(CS& cs) const;

 private:
  size_t rounds_;
  std::optional<ff::fr_t> x0_;
  std::optional<ff::fr_t> claimed_output_;
};

template <r1cs::constraint_system CS>
void hash_chain_circuit::synthesize(CS& cs) const {
  using ff::fr_t;
  using r1cs::linear_combination_t;
  using r1cs::variable_t;
  // Values are tracked only in modes that keep them; elsewhere they stay
  // nullopt and the value callables are never invoked.
  std::optional<fr_t> x = x0_;
  variable_t xv = cs.alloc_input("x0", [&] { return x; });
  for (size_t i = 0; i < rounds_; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "round " + std::to_string(i); });
    // k_i is derived once per round, on first use, so shape mode (which never
    // builds LCs) does not pay for it.
    std::optional<fr_t> k;
    std::optional<fr_t> t, t2, t4, next;
    if constexpr (CS::needs_values) {
      if (x) {
        k = hash_chain_round_constant(i);
        t = *x + *k;
        t2 = t->sqr();
        t4 = t2->sqr();
        next = *t4 * *t;
      }
    }
    auto t_lc = [&](linear_combination_t lc) {
      if (!k) k = hash_chain_round_constant(i);
      return lc + xv + *k * cs.one();
    };
    variable_t t2v = cs.alloc("t2", [&] { return t2; });
    cs.enforce("t2 = t * t", t_lc, t_lc, [&](linear_combination_t lc) { return lc + t2v; });
    variable_t t4v = cs.alloc("t4", [&] { return t4; });
    cs.enforce("t4 = t2 * t2", [&](linear_combination_t lc) { return lc + t2v; },
               [&](linear_combination_t lc) { return lc + t2v; }, [&](linear_combination_t lc) { return lc + t4v; });
    variable_t nv;
    if (i + 1 == rounds_) {
      if (claimed_output_ && next) next = claimed_output_;
      nv = cs.alloc_input("x_out", [&] { return next; });
    } else {
      nv = cs.alloc("x", [&] { return next; });
    }
    cs.enforce("x = t4 * t", [&](linear_combination_t lc) { return lc + t4v; }, t_lc,
               [&](linear_combination_t lc) { return lc + nv; });
    xv = nv;
    x = next;
  }
}

}  // namespace cuzk::circuits
