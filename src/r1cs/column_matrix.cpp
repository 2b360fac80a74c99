#include "r1cs/column_matrix.hpp"

#include <tbb/parallel_for.h>

#include <stdexcept>

namespace cuzk::r1cs {

using ff::fr_t;

column_matrix column_matrix::from_rows(std::span<const term_t> terms, std::span<const uint64_t> row_end,
                                       size_t num_inputs, size_t num_aux) {
  column_matrix m;
  m.num_rows_ = row_end.size();
  m.num_inputs_ = num_inputs;
  size_t n_cols = num_inputs + num_aux;
  auto col_of = [&](variable_t v) {
    size_t j = v.is_input() ? v.index() : num_inputs + v.index();
    if ((v.is_input() && v.index() >= num_inputs) || (v.is_aux() && v.index() >= num_aux)) {
      throw std::out_of_range("column_matrix: variable out of range");
    }
    return j;
  };

  // Counting sort by column; scanning rows in order keeps each column sorted by row.
  std::vector<uint64_t> cursor(n_cols + 1, 0);
  for (const term_t& t : terms) ++cursor[col_of(t.var) + 1];
  for (size_t j = 0; j < n_cols; ++j) cursor[j + 1] += cursor[j];
  m.offsets_ = cursor;
  m.entries_.resize(terms.size());
  size_t k = 0;
  for (size_t r = 0; r < row_end.size(); ++r) {
    for (; k < row_end[r]; ++k) m.entries_[cursor[col_of(terms[k].var)]++] = {r, terms[k].coeff};
  }

  // Merge repeats within a row and drop zero sums, compacting in place
  // (the write index never passes the read index).
  size_t out = 0;
  for (size_t j = 0; j < n_cols; ++j) {
    size_t i = m.offsets_[j], end = m.offsets_[j + 1];
    m.offsets_[j] = out;
    while (i < end) {
      matrix_entry_t e = m.entries_[i++];
      while (i < end && m.entries_[i].row == e.row) e.coeff += m.entries_[i++].coeff;
      if (!e.coeff.is_zero()) m.entries_[out++] = e;
    }
  }
  m.offsets_[n_cols] = out;
  m.entries_.resize(out);
  m.entries_.shrink_to_fit();
  return m;
}

density_tracker column_matrix::input_density() const {
  density_tracker d;
  for (size_t i = 0; i < num_inputs_; ++i) {
    d.add_element();
    if (!input_column(i).empty()) d.inc(i);
  }
  return d;
}

density_tracker column_matrix::aux_density() const {
  density_tracker d;
  for (size_t i = 0; i < num_aux(); ++i) {
    d.add_element();
    if (!aux_column(i).empty()) d.inc(i);
  }
  return d;
}

std::vector<fr_t> column_matrix::multiply(std::span<const fr_t> inputs, std::span<const fr_t> aux) const {
  if (inputs.size() != num_inputs_ || aux.size() != num_aux()) {
    throw std::invalid_argument("column_matrix::multiply: assignment size mismatch");
  }
  std::vector<fr_t> y(num_rows_, fr_t::zero());
  for (size_t j = 0; j < num_columns(); ++j) {
    const fr_t& w = j < num_inputs_ ? inputs[j] : aux[j - num_inputs_];
    for (const matrix_entry_t& e : column(j)) y[e.row] += e.coeff * w;
  }
  return y;
}

std::vector<fr_t> column_matrix::evaluate(std::span<const fr_t> row_values) const {
  if (row_values.size() < num_rows_) {
    throw std::invalid_argument("column_matrix::evaluate: " + std::to_string(row_values.size()) +
                                " row values for " + std::to_string(num_rows_) + " rows");
  }
  std::vector<fr_t> out(num_columns());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, out.size(), 1024), [&](const auto& r) {
    for (size_t j = r.begin(); j < r.end(); ++j) {
      fr_t acc = fr_t::zero();
      for (const matrix_entry_t& e : column(j)) acc += e.coeff * row_values[e.row];
      out[j] = acc;
    }
  });
  return out;
}

}  // namespace cuzk::r1cs
