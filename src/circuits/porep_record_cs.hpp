#pragma once
// Compile mode: records the rows of one block of the PoRep circuit as
// porep_sparse_rows_t, with each variable classed as block-relative,
// absolute or in the block's window (see there). Allocation counters start
// where the layout puts the block, so recorded indices are those of a
// sequential synthesis.
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "circuits/porep_coeff_table_t.hpp"
#include "circuits/porep_slot_cs.hpp"
#include "circuits/porep_sparse_rows_t.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

class porep_record_cs {
 public:
  static constexpr bool needs_values = false;
  static constexpr std::size_t no_block = std::numeric_limits<std::size_t>::max();

  // `start` is where allocation counters begin; variables at or past
  // (aux_base, input_base) are recorded relative to them, and aux below
  // aux_base in [window, window + window_len) relative to `window`.
  porep_record_cs(porep_coeff_table_t& coeffs, porep_sparse_rows_t& a, porep_sparse_rows_t& b,
                  porep_sparse_rows_t& c, std::size_t aux_start, std::size_t input_start, std::size_t aux_base,
                  std::size_t input_base, std::size_t window = 0, std::size_t window_len = 0)
      : coeffs_(coeffs), a_(a), b_(b), c_(c), aux_(aux_start), input_(input_start), aux_base_(aux_base),
        input_base_(input_base), window_(window), window_len_(window_len) {}

  r1cs::variable_t one() const { return r1cs::variable_t::one(); }

  template <r1cs::name_source N, r1cs::value_source V>
  r1cs::variable_t alloc(N&&, V&&) {
    return r1cs::variable_t::aux(aux_++);
  }

  template <r1cs::name_source N, r1cs::value_source V>
  r1cs::variable_t alloc_input(N&&, V&&) {
    return r1cs::variable_t::input(input_++);
  }

  template <r1cs::name_source N, r1cs::lc_builder A, r1cs::lc_builder B, r1cs::lc_builder C>
  void enforce(N&&, A&& a, B&& b, C&& c) {
    record(a_, std::forward<A>(a)(r1cs::linear_combination_t{}));
    record(b_, std::forward<B>(b)(r1cs::linear_combination_t{}));
    record(c_, std::forward<C>(c)(r1cs::linear_combination_t{}));
  }

  template <r1cs::name_source N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

 private:
  std::uint32_t encode(r1cs::variable_t v) const {
    using R = porep_sparse_rows_t;
    const std::size_t i = v.index();
    std::uint32_t cls;
    std::size_t idx;
    if (v.is_aux()) {
      if (i >= aux_base_) cls = R::block_aux, idx = i - aux_base_;
      else if (i - window_ < window_len_) cls = R::window_aux, idx = i - window_;
      else cls = R::abs_aux, idx = i;
    } else {
      i >= input_base_ ? (cls = R::block_input, idx = i - input_base_) : (cls = R::abs_input, idx = i);
    }
    if (idx > R::index_mask) {
      throw std::length_error("porep_record_cs: variable index " + std::to_string(idx) + " past 2^" +
                              std::to_string(R::class_shift));
    }
    return cls << R::class_shift | std::uint32_t(idx);
  }

  void record(porep_sparse_rows_t& m, const r1cs::linear_combination_t& lc) {
    for (const r1cs::term_t& t : lc) m.terms.push_back({encode(t.var), coeffs_.intern(t.coeff)});
    if (m.terms.size() > UINT32_MAX) throw std::length_error("porep_record_cs: a compiled block past 2^32 terms");
    m.row_end.push_back(std::uint32_t(m.terms.size()));
  }

  porep_coeff_table_t& coeffs_;
  porep_sparse_rows_t &a_, &b_, &c_;
  std::size_t aux_, input_, aux_base_, input_base_, window_, window_len_;
};

}  // namespace cuzk::circuits
