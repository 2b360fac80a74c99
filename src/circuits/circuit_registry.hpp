#pragma once
// Built-in circuits by name, for the CLI, benchmarks and service tests.
//   "tiny"        size ignored; 29 constraints, 3 public inputs
//   "hash-chain"  size = target rows of the proving system (constraints plus
//                 one per input), default 2^16; see hash_chain_circuit::from_constraints
//   "porep"       size = sector bytes (2048 default, 8 MiB, 512 MiB, 32 GiB, 64 GiB):
//                 one partition of the stacked PoRep circuit, without a witness
//   "window-post", "winning-post", "snap"  size = sector bytes: one partition
//                 of the fallback PoSt / EmptySectorUpdate circuit, without a witness
// Witnesses are the circuits' fixed defaults, so a name and size determine
// the public inputs.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "circuits/any_circuit.hpp"

namespace cuzk::circuits {

inline constexpr size_t default_hash_chain_size = size_t(1) << 16;
inline constexpr size_t default_porep_sector_bytes = 2048;

std::vector<std::string> circuit_names();

// size 0 picks the circuit's default; an unknown name throws std::invalid_argument.
std::unique_ptr<any_circuit> make_circuit(std::string_view name, size_t size = 0);

}  // namespace cuzk::circuits
