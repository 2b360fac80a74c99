#pragma once
// Assignment-only mode for the compiled path: values go into one slot of a
// porep_witness_t exactly as porep_slot_cs puts them, but enforce() does
// nothing (its linear combinations are never even built). Rows are produced
// afterwards from the compiled matrices (porep_compiled_t::evaluate).
#include <stdexcept>
#include <string>

#include "circuits/porep_slot_cs.hpp"
#include "circuits/porep_witness_t.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

class porep_assign_cs {
 public:
  static constexpr bool needs_values = true;
  // enforce() ignores its rows, so gadgets may skip building them (multi_eq_t).
  static constexpr bool builds_rows = false;

  porep_assign_cs(porep_witness_t& w, const porep_slot_t& slot) : w_(w), s_(slot) {}

  r1cs::variable_t one() const { return r1cs::variable_t::one(); }

  template <r1cs::name_source N, r1cs::value_source V>
  r1cs::variable_t alloc(N&& name, V&& value) {
    if (s_.aux == s_.aux_end) overflow("aux");
    w_.aux[s_.aux] = r1cs::resolve_value(std::forward<V>(value), std::forward<N>(name));
    return r1cs::variable_t::aux(s_.aux++);
  }

  template <r1cs::name_source N, r1cs::value_source V>
  r1cs::variable_t alloc_input(N&& name, V&& value) {
    if (s_.input == s_.input_end) overflow("input");
    w_.inputs[s_.input] = r1cs::resolve_value(std::forward<V>(value), std::forward<N>(name));
    return r1cs::variable_t::input(s_.input++);
  }

  template <r1cs::name_source N, r1cs::lc_builder A, r1cs::lc_builder B, r1cs::lc_builder C>
  void enforce(N&&, A&&, B&&, C&&) {
    ++s_.row;
  }

  template <r1cs::name_source N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  bool filled() const { return s_.row == s_.row_end && s_.aux == s_.aux_end && s_.input == s_.input_end; }

 private:
  [[noreturn]] static void overflow(const char* what) {
    throw std::logic_error(std::string("porep_assign_cs: ") + what +
                           " past the end of its slot (the layout does not match the circuit)");
  }

  porep_witness_t& w_;
  porep_slot_t s_;
};

}  // namespace cuzk::circuits
