#pragma once
// Public header of the poly layer: evaluation domains over Fr, CPU NTTs and the
// Groth16 quotient polynomial.
#include "poly/compute_h.hpp"
#include "poly/domain.hpp"
#include "poly/ntt.hpp"
