#pragma once
// Sizes of a synthesized system; inputs include the constant ONE.
#include <cstddef>

namespace cuzk::r1cs {

struct shape_counts_t {
  size_t num_constraints = 0;
  size_t num_inputs = 0;
  size_t num_aux = 0;

  bool operator==(const shape_counts_t&) const = default;
};

}  // namespace cuzk::r1cs
