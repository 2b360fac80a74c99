#pragma once
// Counting mode: sizes only. Neither names nor values are resolved and the
// linear combinations are not even built, so a constraint costs one
// increment; what remains is the circuit's own control flow. Used to size
// buffers and the evaluation domain before witness synthesis.
#include "r1cs/constraint_system.hpp"
#include "r1cs/shape_counts_t.hpp"

namespace cuzk::r1cs {

class shape_cs {
 public:
  static constexpr bool needs_values = false;

  variable_t one() const { return variable_t::one(); }

  template <name_source N, value_source V>
  variable_t alloc(N&&, V&&) {
    return variable_t::aux(counts_.num_aux++);
  }

  template <name_source N, value_source V>
  variable_t alloc_input(N&&, V&&) {
    return variable_t::input(counts_.num_inputs++);
  }

  template <name_source N, lc_builder A, lc_builder B, lc_builder C>
  void enforce(N&&, A&&, B&&, C&&) {
    ++counts_.num_constraints;
  }

  template <name_source N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  // Counts the x_i * 0 = 0 rows the proving modes append, one per input.
  void add_input_constraints() { counts_.num_constraints += counts_.num_inputs; }

  size_t num_constraints() const { return counts_.num_constraints; }
  size_t num_inputs() const { return counts_.num_inputs; }
  size_t num_aux() const { return counts_.num_aux; }
  const shape_counts_t& counts() const { return counts_; }

 private:
  shape_counts_t counts_{0, 1, 0};  // ONE is input 0
};

}  // namespace cuzk::r1cs
