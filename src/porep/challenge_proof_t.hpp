#pragma once
// Everything one challenge opens (rust-fil-proofs stacked vanilla Proof;
// FILECOIN_POREP.md §10). Labels of the challenged node are column.rows; the
// labeling and encoding "parents" of rust-fil-proofs are not stored because
// they are rows of the parent columns (DRG parents' row L and expander
// parents' row L-1 for layer L), which is also what the circuit reads.
#include <array>
#include <cstdint>

#include "ff/fr.hpp"
#include "porep/column_opening_t.hpp"
#include "porep/merkle_path_t.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::porep {

struct challenge_proof_t {
  std::uint64_t node = 0;                                 // the challenge, in [1, nodes-1]
  ff::fr_t data_leaf;                                     // Tree D leaf: the unsealed data node
  merkle_path_t tree_d;                                   // one sibling per binary level
  std::array<column_opening_t, drg_degree> drg_parents;   // in DRG parent order
  std::array<column_opening_t, expansion_degree> exp_parents;  // in expander order
  column_opening_t column;                                // c_x: the challenged node's own column
  ff::fr_t replica_leaf;                                  // Tree R leaf = label_{layers} + data_leaf
  merkle_path_t tree_r;
};

}  // namespace cuzk::porep
