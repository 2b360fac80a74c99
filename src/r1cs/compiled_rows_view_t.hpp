#pragma once
// A compiled circuit's rows in the flat form a device evaluates (issue 18,
// "a, b, c on the device"): blocks of A, B and C rows, each placed at one or
// more instances (a PoRep partition: the top block once, the challenge block
// once per challenge, shifted), interned coefficients, then one input row
// x_i * 0 = 0 per input after the circuit's rows. The spans point into the
// compiled circuit that made the view (circuits::porep_compiled_t), which
// must outlive it.
//
// A term is three 16-bit words: the variable's low and high halves, then
// the coefficient's index. The variable carries its class in the top three
// bits (circuits::porep_sparse_rows_t):
//   0 block aux    aux[instance.aux + index]
//   1 abs aux      aux[index]
//   2 block input  inputs[instance.input + index]
//   3 abs input    inputs[index]
//   4 window aux   aux[instance.window + index]
// Coefficient 0 is +1 and 1 is -1 (circuits::porep_coeff_table_t).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::r1cs {

struct compiled_rows_view_t {
  static constexpr unsigned class_shift = 29;
  static constexpr std::uint32_t index_mask = (std::uint32_t(1) << class_shift) - 1;
  static constexpr std::uint16_t plus_one = 0, minus_one = 1;

  struct matrix_t {
    std::span<const std::uint32_t> row_end;  // terms of row r: [row_end[r-1], row_end[r])
    std::span<const std::uint16_t> terms;    // 3 words per term
  };
  struct instance_t {
    std::uint64_t row, aux, input;  // the block's first row, aux and input
    std::uint64_t window = 0;       // the first aux of its window (class 4)
  };
  struct block_t {
    matrix_t a, b, c;  // the same number of rows
    std::vector<instance_t> instances;
    std::size_t rows() const { return a.row_end.size(); }
  };

  std::span<const ff::fr_t> coeffs;
  std::vector<block_t> blocks;
  std::size_t circuit_rows = 0;  // the input rows follow
  std::size_t num_inputs = 0, num_aux = 0;

  std::size_t num_constraints() const { return circuit_rows + num_inputs; }
  // Bytes of the matrices and coefficients (what a device copy holds).
  std::size_t bytes() const {
    std::size_t n = coeffs.size_bytes();
    for (const block_t& b : blocks)
      for (const matrix_t* m : {&b.a, &b.b, &b.c}) n += m->row_end.size_bytes() + m->terms.size_bytes();
    return n;
  }
  // bytes() and the blocks' instance tables: what the GPU plan reserves for
  // a device copy (gpu_prover_options_t::rows_bytes).
  std::size_t planned_device_bytes() const {
    std::size_t n = bytes();
    for (const block_t& b : blocks) n += b.instances.size() * sizeof(instance_t);
    return n;
  }
};

}  // namespace cuzk::r1cs
