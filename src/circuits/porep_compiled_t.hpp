#pragma once
// The compiled PoRep partition circuit (issue 4 part 5, "compile once"):
// A, B and C of the top block and of ONE challenge block, row-major with
// interned coefficients, plus the A/B density bitmaps, which depend only on
// the structure. Every challenge block has the same rows up to a shift of its
// variables, so a 32 GiB partition compiles to one 7.2 M-row block instead
// of 130 M rows. Per proof only the assignment is computed
// (porep_assign_cs), then evaluate() forms a = A·w, b = B·w, c = C·w in
// parallel, mostly by additions: coefficients are ±1 or powers of two and
// most values are bits.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "circuits/porep_coeff_table_t.hpp"
#include "circuits/porep_layout_t.hpp"
#include "circuits/porep_sparse_rows_t.hpp"
#include "circuits/porep_witness_t.hpp"
#include "r1cs/compiled_rows_view_t.hpp"
#include "r1cs/qap_columns_t.hpp"

namespace cuzk::circuits {

class porep_circuit;
class porep_record_cs;

class porep_compiled_t {
 public:
  static porep_compiled_t compile(const porep_circuit& circuit, const porep_layout_t& layout);

  // Any circuit of this form: a top block, then layout.challenges blocks of
  // the same rows up to a shift of their own variables (the fallback PoSt
  // circuit: an empty top block, one block per sector; post_synthesis.hpp).
  // `top` and `block` synthesize the top block and block 0 into the
  // recording system they are given; only the layout's block sizes and top
  // slot are read (its step slots may be empty).
  using recorder_t = std::function<void(porep_record_cs&)>;
  static porep_compiled_t compile_blocks(const porep_layout_t& layout, const recorder_t& top,
                                         const recorder_t& block);

  const porep_layout_t& layout() const { return layout_; }
  // Fills a, b, c (input rows included) and the four density bitmaps of a
  // witness whose inputs and aux are assigned; sizes must be the layout's.
  void evaluate(porep_witness_t& w) const;
  // The four density bitmaps alone (what evaluate() sets in them), for a
  // prover that forms the rows elsewhere; the words must be zero and sized
  // to the layout's inputs and aux.
  void densities(std::span<std::uint64_t> a_input, std::span<std::uint64_t> b_input, std::span<std::uint64_t> a_aux,
                 std::span<std::uint64_t> b_aux) const;
  // The matrices in the flat form a device evaluates: the top block once,
  // the challenge block once per challenge. Points into this object.
  r1cs::compiled_rows_view_t view() const;
  // The setup's columns at the given row values (any_circuit::qap_columns):
  // the transpose of evaluate(), scattering each row's value to its terms'
  // variables. Challenge blocks run in parallel (their own variables are
  // disjoint; the shared top-block variables are summed per task, then
  // added). Throws std::invalid_argument on fewer values than constraints.
  r1cs::qap_columns_t qap_columns(std::span<const ff::fr_t> row_values) const;
  // Bytes held by the compiled matrices.
  std::size_t bytes() const;
  // At least as many as any satisfying witness's aux values other than 0 and
  // 1: the aux count less the variables the rows force to be bits
  // (porep_compiled_bits.cpp). Walks every row of the top block and of one
  // challenge block, a few times, on the first call (32 GiB PoRep: ~4 s on
  // one core); later calls return that. Thread-safe.
  std::size_t wide_aux_bound() const;
  std::size_t coefficients() const { return coeffs_.size(); }

 private:
  struct matrices_t {
    using member_t = porep_sparse_rows_t matrices_t::*;
    porep_sparse_rows_t a, b, c;
  };
  // Structure-only density of one block: bits per variable class.
  struct density_t {
    std::vector<std::uint64_t> block_aux, abs_aux, block_input, abs_input, window_aux;
  };

  void eval_rows(const porep_sparse_rows_t& m, std::size_t r0, std::size_t r1, const porep_witness_t& w,
                 const porep_slot_t& at, std::size_t window, ff::fr_t* out) const;
  // Adds coeff * row_values[r] to the column of every term of rows
  // [0, m.rows()): block variables at columns block_aux_col / block_input_col
  // on, top-block (absolute and window) variables into `shared` (inputs,
  // then aux).
  void scatter_rows(const porep_sparse_rows_t& m, const ff::fr_t* row_values, std::size_t block_aux_col,
                    std::size_t block_input_col, std::size_t window, ff::fr_t* columns, ff::fr_t* shared) const;
  static density_t density_of(const porep_sparse_rows_t& m, const porep_coeff_table_t& coeffs,
                              std::size_t block_aux, std::size_t block_inputs, std::size_t abs_aux,
                              std::size_t abs_inputs, std::size_t window_aux);
  void apply_density(const density_t& d, std::uint64_t* aux, std::uint64_t* inputs) const;

  std::size_t compute_wide_aux_bound() const;
  struct wide_bound_t {
    std::once_flag once;
    std::size_t value = 0;
  };

  porep_layout_t layout_;
  porep_coeff_table_t coeffs_;
  std::shared_ptr<wide_bound_t> wide_bound_ = std::make_shared<wide_bound_t>();
  matrices_t top_, block_;
  density_t top_a_, top_b_, block_a_, block_b_;
};

}  // namespace cuzk::circuits
