#pragma once
// One opened column of Tree C: the labels of `node` in every layer and the
// Tree C path of its column hash (rust-fil-proofs ColumnProof). The leaf,
// Poseidon_{layers}(rows), is recomputed by every consumer, never stored.
#include <cstdint>
#include <vector>

#include "ff/fr.hpp"
#include "porep/merkle_path_t.hpp"

namespace cuzk::porep {

struct column_opening_t {
  std::uint64_t node = 0;
  std::vector<ff::fr_t> rows;  // rows[L-1] = label of node in layer L
  merkle_path_t tree_c;
};

}  // namespace cuzk::porep
