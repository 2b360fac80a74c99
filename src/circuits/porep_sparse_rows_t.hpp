#pragma once
// One matrix (A, B or C) of a compiled block, row-major: 6 bytes per term and
// 4 per row. Size matters: a 32 GiB partition's a, b, c and aux take 15.5 GiB
// of the 16 GiB synthesis target, and its compiled block (7.2 M rows, ~40 M
// terms) took 491 MiB at 8 + 8 bytes; packed it is ~320 MiB.
// A term's variable carries its class in the top three bits, so one compiled
// challenge block serves every challenge q of the partition:
//   block_aux   aux index relative to the block's first aux
//   abs_aux     absolute aux index (the top block: replica_id bits, comm_d, ...)
//   block_input input index relative to the block's first input
//   abs_input   absolute input index (ONE, replica_id, comm_d, comm_r)
//   window_aux  aux index relative to the block's window: top-block variables
//               that differ per block at a per-block offset (a SnapDeals
//               challenge's random bits, a slice of the top block's digests)
#include <cstdint>
#include <vector>

namespace cuzk::circuits {

struct porep_sparse_rows_t {
  enum var_class : std::uint32_t { block_aux = 0, abs_aux = 1, block_input = 2, abs_input = 3, window_aux = 4 };
  static constexpr unsigned class_count = 5;
  static constexpr unsigned class_shift = 29;
  static constexpr std::uint32_t index_mask = (std::uint32_t(1) << class_shift) - 1;

  struct [[gnu::packed]] term_t {
    std::uint32_t var;    // class << 29 | index
    std::uint16_t coeff;  // index into porep_coeff_table_t (at most 2^16 distinct values)
  };
  static_assert(sizeof(term_t) == 6);

  std::vector<std::uint32_t> row_end;  // terms of row i: [row_end[i-1], row_end[i]); a block has < 2^32 terms
  std::vector<term_t> terms;

  std::size_t rows() const { return row_end.size(); }
  std::size_t bytes() const { return row_end.size() * sizeof(std::uint64_t) + terms.size() * sizeof(term_t); }
};

}  // namespace cuzk::circuits
