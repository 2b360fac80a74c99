#pragma once
// Assignment-only mode for the compiled path: values go into one slot of a
// porep_witness_t exactly as porep_slot_cs puts them, but enforce() does
// nothing (its linear combinations are never even built). Rows are produced
// afterwards from the compiled matrices (porep_compiled_t::evaluate).
#include "circuits/porep_slot_writer_t.hpp"

namespace cuzk::circuits {

class porep_assign_cs : public porep_slot_writer_t {
 public:
  // enforce() ignores its rows, so gadgets may skip building them (multi_eq_t).
  static constexpr bool builds_rows = false;

  porep_assign_cs(porep_witness_t& w, const porep_slot_t& slot) : porep_slot_writer_t(w, slot, "porep_assign_cs") {}

  template <r1cs::name_source N, r1cs::lc_builder A, r1cs::lc_builder B, r1cs::lc_builder C>
  void enforce(N&&, A&&, B&&, C&&) {
    next_row();
  }
};

}  // namespace cuzk::circuits
