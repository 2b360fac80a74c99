#pragma once
// The gadgets layer: native hashes (SHA-256, Poseidon, Merkle trees) and their
// R1CS twins, written once against r1cs::constraint_system so they run in
// every synthesis mode. Constraint structure follows bellperson /
// bellpepper-core / neptune / storage-proofs-core row for row, so counts and
// matrices match Filecoin's published Groth16 parameters
// (FILECOIN_POREP.md §7-§9).
#include "gadgets/allocated_bit.hpp"
#include "gadgets/allocated_num.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/merkle_gadget.hpp"
#include "gadgets/merkle_native.hpp"
#include "gadgets/multi_eq.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "gadgets/poseidon_native.hpp"
#include "gadgets/sha256_gadget.hpp"
#include "gadgets/sha256_native.hpp"
#include "gadgets/uint32_word.hpp"
