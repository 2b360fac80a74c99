#pragma once
// A proving-mode constraint system that writes into one preallocated slot of
// a porep_witness_t: rows [row, row_end), aux [aux, aux_end), inputs
// [input, input_end). The stacked circuit's blocks have fixed sizes
// (FILECOIN_POREP.md §8), so every step of every challenge knows where its
// rows and variables go before synthesis starts, and tasks fill disjoint
// slots in parallel with the same arithmetic as r1cs::witness_cs.
//
// Reads of variables outside the slot (ONE, replica_id bits, comm_d, ...)
// are safe: those were written by an earlier phase. Density bits are shared
// words (slots need not start on a 64-bit boundary, and every block marks the
// replica_id bits), so they are set with an atomic OR, after a plain load:
// once set, a bit costs only a read of a shared cache line.
#include <atomic>
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

class porep_slot_cs {
 public:
  static constexpr bool needs_values = true;

  porep_slot_cs(porep_witness_t& w, const porep_slot_t& slot) : w_(w), s_(slot) {}

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
  void enforce(N&&, A&& a, B&& b, C&& c) {
    if (s_.row == s_.row_end) overflow("row");
    w_.a[s_.row] = eval(std::forward<A>(a)(r1cs::linear_combination_t{}), w_.a_input_density.data(),
                        w_.a_aux_density.data());
    w_.b[s_.row] = eval(std::forward<B>(b)(r1cs::linear_combination_t{}), w_.b_input_density.data(),
                        w_.b_aux_density.data());
    w_.c[s_.row] = eval(std::forward<C>(c)(r1cs::linear_combination_t{}), nullptr, nullptr);
    ++s_.row;
  }

  template <r1cs::name_source N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  // Where the cursors stand; a finished slot has every cursor at its end.
  const porep_slot_t& cursor() const { return s_; }
  bool filled() const { return s_.row == s_.row_end && s_.aux == s_.aux_end && s_.input == s_.input_end; }

 private:
  [[noreturn]] static void overflow(const char* what) {
    throw std::logic_error(std::string("porep_slot_cs: ") + what +
                           " past the end of its slot (the layout does not match the circuit)");
  }

  static void mark(std::uint64_t* words, std::size_t i) {
    std::atomic_ref<std::uint64_t> w(words[i / 64]);
    const std::uint64_t m = std::uint64_t(1) << (i % 64);
    if (!(w.load(std::memory_order_relaxed) & m)) w.fetch_or(m, std::memory_order_relaxed);
  }

  ff::fr_t eval(const r1cs::linear_combination_t& lc, std::uint64_t* input_density, std::uint64_t* aux_density) {
    ff::fr_t acc = ff::fr_t::zero();
    for (const r1cs::term_t& t : lc) {
      const std::size_t i = t.var.index();
      const bool is_input = t.var.is_input();
      acc += r1cs::linear_combination_t::term_value(t, is_input ? w_.inputs[i] : w_.aux[i]);
      if (!input_density || t.coeff.is_zero()) continue;
      mark(is_input ? input_density : aux_density, i);
    }
    return acc;
  }

  porep_witness_t& w_;
  porep_slot_t s_;
};

}  // namespace cuzk::circuits
