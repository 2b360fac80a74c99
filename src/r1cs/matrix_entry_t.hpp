#pragma once
// One nonzero of a constraint matrix inside a column: the coefficient of a
// variable in constraint `row`.
#include <cstdint>

#include "ff/fr.hpp"

namespace cuzk::r1cs {

struct matrix_entry_t {
  uint64_t row;
  ff::fr_t coeff;

  bool operator==(const matrix_entry_t&) const = default;
};

}  // namespace cuzk::r1cs
