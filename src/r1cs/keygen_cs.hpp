#pragma once
// Key-generation mode, after bellman's KeypairAssembly: records the linear
// combinations of every constraint, no values. Rows are appended as written
// (40 bytes per term) and transposed on demand into per-variable columns,
// which Groth16 setup evaluates at tau; that is cheaper than bellman's vector
// per variable (24 bytes of header each plus an allocation) at 10^8 variables.
#include <utility>
#include <vector>

#include "r1cs/column_matrix.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/qap_columns_t.hpp"
#include "r1cs/shape_counts_t.hpp"

namespace cuzk::r1cs {

class keygen_cs {
 public:
  static constexpr bool needs_values = false;

  keygen_cs() = default;

  variable_t one() const { return variable_t::one(); }

  template <name_source N, value_source V>
  variable_t alloc(N&&, V&&) {
    return variable_t::aux(num_aux_++);
  }

  template <name_source N, value_source V>
  variable_t alloc_input(N&&, V&&) {
    return variable_t::input(num_inputs_++);
  }

  template <name_source N, lc_builder A, lc_builder B, lc_builder C>
  void enforce(N&&, A&& a, B&& b, C&& c) {
    a_.append(std::forward<A>(a)(linear_combination_t{}));
    b_.append(std::forward<B>(b)(linear_combination_t{}));
    c_.append(std::forward<C>(c)(linear_combination_t{}));
  }

  template <name_source N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  // x_i * 0 = 0 for every input, exactly as witness_cs appends them, so the
  // rows of both modes line up. Inputs have full density in the A query
  // because there are constraints of the form x * 0 = 0 for each input.
  void add_input_constraints() {
    for (size_t i = 0; i < num_inputs_; ++i) {
      enforce("", [i](linear_combination_t lc) { return lc + variable_t::input(i); },
              [](linear_combination_t lc) { return lc; }, [](linear_combination_t lc) { return lc; });
    }
  }

  size_t num_constraints() const { return a_.row_end.size(); }
  size_t num_inputs() const { return num_inputs_; }
  size_t num_aux() const { return num_aux_; }
  shape_counts_t counts() const { return {num_constraints(), num_inputs(), num_aux()}; }

  // Column-major A, B, C; each call transposes anew (O(nnz)), so keep the result.
  column_matrix a_columns() const { return a_.columns(num_inputs_, num_aux_); }
  column_matrix b_columns() const { return b_.columns(num_inputs_, num_aux_); }
  column_matrix c_columns() const { return c_.columns(num_inputs_, num_aux_); }

  // Every column of A, B and C evaluated at the given row values (the
  // Lagrange values L_i(tau) in a setup); throws std::invalid_argument when
  // there are fewer values than rows.
  qap_columns_t columns_at(std::span<const ff::fr_t> row_values) const {
    return {a_columns().evaluate(row_values), b_columns().evaluate(row_values), c_columns().evaluate(row_values)};
  }

 private:
  struct row_store {
    std::vector<term_t> terms;
    std::vector<uint64_t> row_end;

    void append(const linear_combination_t& lc) {
      terms.insert(terms.end(), lc.begin(), lc.end());
      row_end.push_back(terms.size());
    }
    column_matrix columns(size_t n_inputs, size_t n_aux) const {
      return column_matrix::from_rows(terms, row_end, n_inputs, n_aux);
    }
  };

  size_t num_inputs_ = 1;  // ONE
  size_t num_aux_ = 0;
  row_store a_, b_, c_;
};

}  // namespace cuzk::r1cs
