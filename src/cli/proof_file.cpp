#include "cli/proof_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <CLI/CLI.hpp>

#include "cli/file_io.hpp"
#include "ec/encoding.hpp"
#include "groth16/format_error.hpp"
#include "groth16/param_io.hpp"
#include "groth16/public_inputs.hpp"

namespace cuzk::cli {
namespace {

using groth16::format_error;

std::string trim(const std::string& s) {
  const char* ws = " \t\r\n";
  size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

// Proofs are small; anything much larger is not one (and is not read whole).
constexpr size_t max_proof_file = 4096;

}  // namespace

std::vector<uint8_t> read_proof_bytes(const std::string& source, literal_hex literal) {
  std::error_code ec;
  const bool is_file = std::filesystem::is_regular_file(source, ec);
  if (!is_file) {
    std::vector<uint8_t> bytes;
    if (literal == literal_hex::accept && !std::filesystem::exists(source, ec)) {
      if (ec::from_hex(trim(source), bytes)) return bytes;
      throw format_error(source, "no such file, and not a hex string");
    }
    if (std::filesystem::exists(source, ec)) throw format_error(source, "not a regular file");
    throw format_error(source, "cannot open: No such file or directory");
  }
  auto size = std::filesystem::file_size(source, ec);
  if (ec) throw format_error(source, "cannot stat: " + ec.message());
  if (size > max_proof_file) {
    throw format_error(source, "file has " + std::to_string(size) + " bytes, not a proof (192 bytes or hex text)");
  }
  std::ifstream in(source, std::ios::binary);
  if (!in) throw format_error(source, std::string("cannot open: ") + std::strerror(errno));
  std::vector<uint8_t> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (raw.size() == groth16::proof_size) return raw;
  std::vector<uint8_t> bytes;
  if (ec::from_hex(trim(std::string(raw.begin(), raw.end())), bytes)) return bytes;
  throw format_error(source, "neither 192 raw bytes nor hex text (" + std::to_string(raw.size()) + " bytes)");
}

groth16::proof_t read_proof(const std::string& path) {
  auto bytes = read_proof_bytes(path);
  if (bytes.size() != groth16::proof_size) {
    throw format_error(path, "proof must be 192 bytes, got " + std::to_string(bytes.size()));
  }
  groth16::proof_t proof;
  if (auto r = groth16::decode_proof(bytes, proof); !r.ok()) throw format_error(path, r.message());
  return proof;
}

void write_proof(const std::string& path, const groth16::proof_t& proof) {
  auto bytes = proof.encode();
  write_file(path, bytes);
}

}  // namespace cuzk::cli

namespace cuzk::cli {

using groth16::format_error;

void add_proof_input_options(CLI::App* app, proof_input_paths_t& paths) {
  app->add_option("--vk", paths.vk, "Verifying-key file")->required();
  app->add_option("--proof", paths.proof, "Proof file: 192 raw bytes or hex text")->required();
  app->add_option("--public", paths.public_inputs, "Public inputs: JSON array of decimal strings")->required();
}

proof_inputs_t read_proof_inputs(const proof_input_paths_t& paths) {
  proof_inputs_t in{groth16::read_verifying_key(paths.vk), read_proof(paths.proof),
                    groth16::read_public_inputs(paths.public_inputs)};
  if (in.public_inputs.size() != in.vk.num_public_inputs()) {
    throw format_error(paths.public_inputs, "has " + std::to_string(in.public_inputs.size()) +
                                                " public inputs, the verifying key expects " +
                                                std::to_string(in.vk.num_public_inputs()));
  }
  return in;
}

}  // namespace cuzk::cli
