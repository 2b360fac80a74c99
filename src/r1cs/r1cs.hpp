#pragma once
// Public header of the r1cs layer: the constraint-system concept and its modes.
#include "r1cs/circuit.hpp"
#include "r1cs/column_matrix.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/density_tracker.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/linear_combination_t.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/variable_t.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::r1cs {

static_assert(constraint_system<witness_cs>);
static_assert(constraint_system<keygen_cs>);
static_assert(constraint_system<shape_cs>);
static_assert(constraint_system<test_cs>);

}  // namespace cuzk::r1cs
