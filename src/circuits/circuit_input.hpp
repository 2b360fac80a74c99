#pragma once
// Built-in circuits with a caller-chosen private witness, read from JSON (the
// CLI's `prove --input FILE`). Field values are decimal strings (snarkjs'
// convention) or 0x-prefixed hex strings; non-negative JSON integers are
// accepted too. Per circuit:
//   "tiny"        {"x": "<value>"}    public y = x^3 + x + 5, sel = x, u = u_24
//   "hash-chain"  {"x0": "<value>"}   public x0 and x_rounds
// Missing, unknown or malformed keys throw std::invalid_argument naming them,
// so a typo never silently falls back to the default witness.
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string_view>

#include "circuits/any_circuit.hpp"

namespace cuzk::circuits {

// size as for make_circuit (0 picks the default).
std::unique_ptr<any_circuit> make_circuit_with_input(std::string_view name, size_t size,
                                                     const nlohmann::json& input);

}  // namespace cuzk::circuits
