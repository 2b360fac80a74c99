#pragma once
// Public inputs as snarkjs writes public.json: a JSON array of decimal strings,
// ONE excluded. Hex strings with a 0x prefix are accepted on input.
#include <string>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::groth16 {

std::vector<ff::fr_t> parse_public_inputs(const std::string& text, const std::string& name);
std::vector<ff::fr_t> read_public_inputs(const std::string& path);
std::string format_public_inputs(const std::vector<ff::fr_t>& inputs);
void write_public_inputs(const std::string& path, const std::vector<ff::fr_t>& inputs);

}  // namespace cuzk::groth16
