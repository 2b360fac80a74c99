#pragma once
// One summand coeff * var of a linear combination.
#include "ff/fr.hpp"
#include "r1cs/variable_t.hpp"

namespace cuzk::r1cs {

using ff::fr_t;

struct term_t {
  variable_t var;
  fr_t coeff;
};

static_assert(sizeof(term_t) == 40);

// `coeff * var` spells a scaled term: `lc + fr_t::from_u64(5) * x`.
constexpr term_t operator*(const fr_t& coeff, variable_t var) { return {var, coeff}; }

}  // namespace cuzk::r1cs
