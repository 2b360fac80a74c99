#pragma once
// What the two value-writing PoRep constraint systems share (porep_slot_cs,
// which also evaluates each row, and porep_assign_cs, which only assigns):
// cursors over one preallocated slot of a porep_witness_t, rows
// [row, row_end), aux [aux, aux_end), inputs [input, input_end), with values
// written in place and an error when a step overruns its slot.
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

#include "circuits/porep_witness_t.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

struct porep_slot_t {
  std::size_t row = 0, row_end = 0;
  std::size_t aux = 0, aux_end = 0;
  std::size_t input = 0, input_end = 0;
};

class porep_slot_writer_t {
 public:
  static constexpr bool needs_values = true;

  r1cs::variable_t one() const { return r1cs::variable_t::one(); }

  template <r1cs::name_source N, r1cs::value_source V>
  r1cs::variable_t alloc(N&& name, V&& value) {
    if (s_.aux == s_.aux_end) overflow("aux");
    const auto v = r1cs::resolve_value(std::forward<V>(value), std::forward<N>(name));
    if (compact_) compact_->push(v);
    else w_.aux[s_.aux] = v;
    return r1cs::variable_t::aux(s_.aux++);
  }

  template <r1cs::name_source N, r1cs::value_source V>
  r1cs::variable_t alloc_input(N&& name, V&& value) {
    if (s_.input == s_.input_end) overflow("input");
    w_.inputs[s_.input] = r1cs::resolve_value(std::forward<V>(value), std::forward<N>(name));
    return r1cs::variable_t::input(s_.input++);
  }

  template <r1cs::name_source N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  // Where the cursors stand; a finished slot has every cursor at its end.
  const porep_slot_t& cursor() const { return s_; }
  bool filled() const { return s_.row == s_.row_end && s_.aux == s_.aux_end && s_.input == s_.input_end; }
  // The end of a step: the values written so far go to the witness (a
  // compact one receives them only now), and whether the slot is full.
  bool done() {
    if (compact_) compact_->done();
    return filled();
  }

 protected:
  // `mode` names the constraint system in errors.
  porep_slot_writer_t(porep_witness_t& w, const porep_slot_t& slot, const char* mode) : w_(w), s_(slot), mode_(mode) {
    if (w.aux_compact) compact_.emplace(*w.aux_compact, slot.aux, slot.aux_end);
  }

  // Claims the slot's next row.
  std::size_t next_row() {
    if (s_.row == s_.row_end) overflow("row");
    return s_.row++;
  }

  [[noreturn]] void overflow(const char* what) const {
    throw std::logic_error(std::string(mode_) + ": " + what +
                           " past the end of its slot (the layout does not match the circuit)");
  }

  porep_witness_t& w_;
  porep_slot_t s_;
  std::optional<r1cs::compact_builder_t::writer_t> compact_;

 private:
  const char* mode_;
};

}  // namespace cuzk::circuits
