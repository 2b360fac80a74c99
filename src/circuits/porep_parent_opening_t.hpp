#pragma once
// One parent column as the circuit reads it (FILECOIN_POREP.md §8, "Witness
// sources"): the node index, its label in every layer (layer 1 first) and
// the siblings of its Tree C path. The column hash and the leaf are
// recomputed in the circuit, never read.
#include <cstdint>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::circuits {

struct porep_parent_opening_t {
  std::uint64_t node = 0;
  std::vector<ff::fr_t> rows;          // layers labels
  std::vector<ff::fr_t> c_siblings;    // per level arity-1 siblings, leaf to root, concatenated
};

}  // namespace cuzk::circuits
