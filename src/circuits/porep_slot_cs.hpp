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
#include <cstdint>

#include "circuits/porep_slot_writer_t.hpp"

namespace cuzk::circuits {

class porep_slot_cs : public porep_slot_writer_t {
 public:
  porep_slot_cs(porep_witness_t& w, const porep_slot_t& slot) : porep_slot_writer_t(w, slot, "porep_slot_cs") {
    if (w.aux_compact) throw std::logic_error("porep_slot_cs reads the aux it writes: not over a compact witness");
  }

  template <r1cs::name_source N, r1cs::lc_builder A, r1cs::lc_builder B, r1cs::lc_builder C>
  void enforce(N&&, A&& a, B&& b, C&& c) {
    const std::size_t row = next_row();
    w_.a[row] = eval(std::forward<A>(a)(r1cs::linear_combination_t{}), w_.a_input_density.data(),
                     w_.a_aux_density.data());
    w_.b[row] = eval(std::forward<B>(b)(r1cs::linear_combination_t{}), w_.b_input_density.data(),
                     w_.b_aux_density.data());
    w_.c[row] = eval(std::forward<C>(c)(r1cs::linear_combination_t{}), nullptr, nullptr);
  }

 private:
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
};

}  // namespace cuzk::circuits
