#pragma once
// One of A, B, C stored column-major (compressed sparse columns): for each
// variable, its (constraint, coefficient) pairs in increasing constraint order.
// This is what Groth16 setup consumes: A_j(tau) = sum over the column of
// coeff * L_row(tau). Columns are numbered inputs first, then aux.
// A variable repeated inside one constraint is merged into one entry, and
// entries that sum to zero are dropped, so an empty column is exactly a zero
// polynomial (a clear density bit).
#include <span>
#include <vector>

#include "r1cs/density_tracker.hpp"
#include "r1cs/matrix_entry_t.hpp"
#include "r1cs/term_t.hpp"

namespace cuzk::r1cs {

class column_matrix {
 public:
  column_matrix() = default;

  // Transposes row-major terms: row r holds terms[row_end[r-1] .. row_end[r]).
  // O(nnz + columns) time, one counting-sort pass.
  static column_matrix from_rows(std::span<const term_t> terms, std::span<const uint64_t> row_end,
                                 size_t num_inputs, size_t num_aux);

  size_t num_rows() const { return num_rows_; }
  size_t num_inputs() const { return num_inputs_; }
  size_t num_aux() const { return num_columns() - num_inputs_; }
  size_t num_columns() const { return offsets_.empty() ? 0 : offsets_.size() - 1; }
  size_t nnz() const { return entries_.size(); }

  std::span<const matrix_entry_t> column(size_t j) const {
    return std::span(entries_).subspan(offsets_[j], offsets_[j + 1] - offsets_[j]);
  }
  std::span<const matrix_entry_t> input_column(size_t i) const { return column(i); }
  std::span<const matrix_entry_t> aux_column(size_t i) const { return column(num_inputs_ + i); }

  // Nonempty columns as bitmaps, to compare with the witness mode's trackers.
  density_tracker input_density() const;
  density_tracker aux_density() const;

  // y_row = sum_j M[row][j] * w_j for every row: the naive product a second
  // path to the witness mode's a, b, c vectors.
  std::vector<ff::fr_t> multiply(std::span<const ff::fr_t> inputs, std::span<const ff::fr_t> aux) const;

  // x_j = sum over column j of coeff * row_values[row], every column, in
  // parallel: with row_values = L_row(tau), the setup's A_j(tau).
  // Throws std::invalid_argument when row_values has fewer than num_rows().
  std::vector<ff::fr_t> evaluate(std::span<const ff::fr_t> row_values) const;

 private:
  size_t num_rows_ = 0;
  size_t num_inputs_ = 0;
  std::vector<uint64_t> offsets_;  // num_columns + 1
  std::vector<matrix_entry_t> entries_;
};

}  // namespace cuzk::r1cs
