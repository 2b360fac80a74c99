#pragma once
// Native Poseidon over Fr as Filecoin computes it (neptune, Standard strength,
// MerkleTree domain tag; FILECOIN_POREP.md §3.2): state = [2^arity - 1, x_1..x_a],
// the permutation, output state[1]. Used for Tree C / Tree R nodes
// (arity 8), comm_r and the 2-layer column hash (arity 2) and the 11-layer
// column hash (arity 11).
#include <span>

#include "ff/fr.hpp"
#include "gadgets/poseidon_constants.hpp"

namespace cuzk::gadgets {

// Hash of inputs.size() elements; the arity is inputs.size() and must be one
// poseidon_params() supports (2, 4, 8, 11), else std::invalid_argument.
// Runs the optimized form (compressed constants, sparse partial-round
// matrices), about 3x fewer multiplications than the textbook permutation
// for arity 8.
ff::fr_t poseidon_hash(std::span<const ff::fr_t> inputs);
ff::fr_t poseidon_hash(const poseidon_params_t& params, std::span<const ff::fr_t> inputs);

// The textbook permutation (full/partial rounds with rc and M): slower; kept
// as a second implementation that the optimized paths are tested against.
ff::fr_t poseidon_hash_reference(const poseidon_params_t& params, std::span<const ff::fr_t> inputs);

}  // namespace cuzk::gadgets
