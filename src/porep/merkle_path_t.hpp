#pragma once
// An inclusion path in a Tree C / R / D, leaf to root. Level l holds the
// arity_l − 1 siblings of the node on the path, left to right with the path
// node's own slot left out (rust-fil-proofs merkle/proof.rs "hashes"). The
// slot itself is not stored: it is digit l of the leaf index in the mixed
// radix of the tree's arities (path_slots), because leaf index = node index.
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::porep {

struct merkle_path_t {
  std::vector<std::vector<ff::fr_t>> siblings;
};

}  // namespace cuzk::porep
