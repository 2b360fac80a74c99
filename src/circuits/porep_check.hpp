#pragma once
// The PoRep circuit's test mode at full size: is the witness satisfying, and
// if not, which constraint fails first, by name (after bellman's
// TestConstraintSystem::which_is_unsatisfied). Fast synthesis finds the
// first row with a*b != c, then a value-free pass names it (porep_name_cs).
#include <optional>
#include <string>

#include "circuits/porep_circuit.hpp"

namespace cuzk::circuits {

struct porep_unsatisfied_t {
  std::size_t row;
  std::string name;  // e.g. "challenge_0_tree_d/inclusion/enforce root is correct"
};

// nullopt when every row holds. The circuit must carry a witness.
std::optional<porep_unsatisfied_t> porep_which_is_unsatisfied(const porep_circuit& circuit);

}  // namespace cuzk::circuits
