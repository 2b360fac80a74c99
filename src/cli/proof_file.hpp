#pragma once
// Reading a proof given as a file of 192 raw bytes, a file of hex text, or
// (for decode-proof) a hex string on the command line. The two file forms
// cannot be confused: hex text of a proof is at least 384 characters long.
#include <cstdint>
#include <string>
#include <vector>

#include "groth16/proof_t.hpp"
#include "groth16/verifying_key_t.hpp"
#include "ff/fr.hpp"

namespace CLI {
class App;
}

namespace cuzk::cli {

enum class literal_hex : bool { reject = false, accept = true };

// The proof's bytes, any length; throws groth16::format_error naming the
// source when it cannot be read or is neither raw bytes nor hex.
std::vector<uint8_t> read_proof_bytes(const std::string& source, literal_hex literal = literal_hex::reject);

// Decoded and subgroup-checked; format_error says which element is bad,
// e.g. "proof.bin: proof element B: point not in the prime-order subgroup".
groth16::proof_t read_proof(const std::string& path);

// The 192-byte encoding, raw.
void write_proof(const std::string& path, const groth16::proof_t& proof);

// The three files every proof-consuming command takes: --vk, --proof, --public.
struct proof_input_paths_t {
  std::string vk, proof, public_inputs;
};
void add_proof_input_options(CLI::App* app, proof_input_paths_t& paths);

// What those files hold, read and validated; the public-input count is
// checked against the key so a mismatch names the public-inputs file.
struct proof_inputs_t {
  groth16::verifying_key_t vk;
  groth16::proof_t proof;
  std::vector<ff::fr_t> public_inputs;
};
proof_inputs_t read_proof_inputs(const proof_input_paths_t& paths);

}  // namespace cuzk::cli
