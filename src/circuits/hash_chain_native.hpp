#pragma once
// The MiMC-style permutation chain proven by hash_chain_circuit, computed
// directly: x_{i+1} = (x_i + k_i)^5. The exponent is 5 because x -> x^e is a
// permutation of Fr only when gcd(e, r - 1) = 1, and 3 divides r - 1 for
// BLS12-381 while 5 does not (MiMC, Albrecht et al., ASIACRYPT 2016, sec. 2).
// Not a secure hash (too few rounds, trivial constants): a workload whose size
// is one knob.
#include <cstddef>

#include "ff/fr.hpp"

namespace cuzk::circuits {

// k_i = i^3 + 42 in Fr: distinct, nonzero, deterministic, and free of any hash
// so other implementations can reproduce it. Exact u64 arithmetic below 2^21.
ff::fr_t hash_chain_round_constant(size_t i);

// x_rounds starting from x0.
ff::fr_t hash_chain_native(const ff::fr_t& x0, size_t rounds);

}  // namespace cuzk::circuits
