#pragma once
// Public header of the circuits layer.
#include "circuits/any_circuit.hpp"
#include "circuits/circuit_model.hpp"
#include "circuits/circuit_registry.hpp"
#include "circuits/hash_chain_circuit.hpp"
#include "circuits/hash_chain_native.hpp"
#include "circuits/tiny_circuit.hpp"
