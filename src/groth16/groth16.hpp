#pragma once
// Public header of the groth16 layer.
#include "groth16/format_error.hpp"
#include "groth16/param_io.hpp"
#include "groth16/parameters_t.hpp"
#include "groth16/proof_t.hpp"
#include "groth16/prover.hpp"
#include "groth16/public_inputs.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
