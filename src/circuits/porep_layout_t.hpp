#pragma once
// Where every step of every challenge block sits in the partition's rows,
// aux variables and inputs (FILECOIN_POREP.md §8: for 32 GiB, challenge q
// starts at row 571 + 7,237,665 q and aux 571 + 7,231,629 q). Measured once
// per shape by running the top block and the first challenge block in shape
// mode; every challenge block has the same shape because nothing in the
// circuit's control flow depends on witness values.
#include <cstddef>
#include <vector>

#include "circuits/porep_slot_cs.hpp"

namespace cuzk::circuits {

class porep_circuit;

struct porep_layout_t {
  porep_slot_t top;  // absolute: rows, aux and inputs (ONE excluded: inputs start at 1)
  // Relative to the start of a challenge block.
  porep_slot_t leaf, tree_d, parents, challenge, tail;
  std::vector<porep_slot_t> labels;  // layer 1 first
  std::size_t block_rows = 0, block_aux = 0, block_inputs = 0;
  unsigned challenges = 0;
  // Top-block variables a block reads at a per-block offset (the
  // window_aux class of porep_sparse_rows_t): block q's window is absolute
  // aux [windows[q], windows[q] + window_len). Empty where every block reads
  // the same top variables (PoRep, PoSt).
  std::size_t window_len = 0;
  std::vector<std::size_t> windows;

  std::size_t window_of(unsigned q) const { return windows.empty() ? 0 : windows[q]; }

  std::size_t circuit_rows() const { return top.row_end + block_rows * challenges; }
  std::size_t num_aux() const { return top.aux_end + block_aux * challenges; }
  std::size_t num_inputs() const { return top.input_end + block_inputs * challenges; }  // ONE included
  // Circuit rows plus one input row (x * 0 = 0) per input: the rows of a, b, c.
  std::size_t num_constraints() const { return circuit_rows() + num_inputs(); }

  // The absolute slot of a block-relative step for challenge q.
  porep_slot_t at(unsigned q, const porep_slot_t& rel) const {
    const std::size_t r = top.row_end + block_rows * q, a = top.aux_end + block_aux * q,
                      i = top.input_end + block_inputs * q;
    return {r + rel.row, r + rel.row_end, a + rel.aux, a + rel.aux_end, i + rel.input, i + rel.input_end};
  }

  // Shape-mode passes over the top block and challenge block 0: about
  // 1/challenges of a full shape synthesis.
  static porep_layout_t measure(const porep_circuit& circuit);
};

}  // namespace cuzk::circuits
