// cuzk verify --vk FILE --proof FILE --public FILE
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "cli/proof_file.hpp"
#include "groth16/groth16.hpp"

namespace cuzk::cli {
namespace {

struct verify_options {
  std::string vk, proof, public_path;
};

int run_verify(const verify_options& o) {
  auto vk = groth16::read_verifying_key(o.vk);
  auto proof = read_proof(o.proof);
  auto inputs = groth16::read_public_inputs(o.public_path);
  if (inputs.size() != vk.num_public_inputs()) {
    throw groth16::format_error(o.public_path, "has " + std::to_string(inputs.size()) +
                                                   " public inputs, the verifying key expects " +
                                                   std::to_string(vk.num_public_inputs()));
  }
  stopwatch sw;
  bool ok = groth16::prepared_vk_t(vk).verify(proof, inputs);
  double ms = sw.lap();
  fmt::print("{} ({:.1f} ms)\n", ok ? "valid" : "invalid", ms);
  return ok ? exit_ok : exit_invalid;
}

}  // namespace

command_t add_verify_command(CLI::App& root) {
  auto o = std::make_shared<verify_options>();
  auto* app = root.add_subcommand(
      "verify", "Verify a proof; exit 0 valid, 1 invalid, 2 unreadable or malformed input");
  app->add_option("--vk", o->vk, "Verifying-key file")->required();
  app->add_option("--proof", o->proof, "Proof file: 192 raw bytes or hex text")->required();
  app->add_option("--public", o->public_path, "Public inputs: JSON array of decimal strings")->required();
  return {app, [o] { return run_verify(*o); }};
}

}  // namespace cuzk::cli
