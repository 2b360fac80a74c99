#pragma once
// One matrix (A, B or C) of a compiled block, row-major: 8 bytes per term.
// A term's variable carries its class in the top two bits, so one compiled
// challenge block serves every challenge q of the partition:
//   block_aux   aux index relative to the block's first aux
//   abs_aux     absolute aux index (the top block: replica_id bits, comm_d, ...)
//   block_input input index relative to the block's first input
//   abs_input   absolute input index (ONE, replica_id, comm_d, comm_r)
#include <cstdint>
#include <vector>

namespace cuzk::circuits {

struct porep_sparse_rows_t {
  enum var_class : std::uint32_t { block_aux = 0, abs_aux = 1, block_input = 2, abs_input = 3 };
  static constexpr unsigned class_shift = 30;
  static constexpr std::uint32_t index_mask = (std::uint32_t(1) << class_shift) - 1;

  struct term_t {
    std::uint32_t var;    // class << 30 | index
    std::uint32_t coeff;  // index into porep_coeff_table_t
  };

  std::vector<std::uint64_t> row_end;  // terms of row i: [row_end[i-1], row_end[i])
  std::vector<term_t> terms;

  std::size_t rows() const { return row_end.size(); }
  std::size_t bytes() const { return row_end.size() * sizeof(std::uint64_t) + terms.size() * sizeof(term_t); }
};

}  // namespace cuzk::circuits
