// cuzk verify --vk FILE --proof FILE --public FILE
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "cli/proof_file.hpp"
#include "groth16/groth16.hpp"

namespace cuzk::cli {
namespace {

int run_verify(const proof_input_paths_t& paths) {
  auto in = read_proof_inputs(paths);
  stopwatch sw;
  bool ok = groth16::prepared_vk_t(in.vk).verify(in.proof, in.public_inputs);
  double ms = sw.lap();
  fmt::print("{} ({:.1f} ms)\n", ok ? "valid" : "invalid", ms);
  return ok ? exit_ok : exit_invalid;
}

}  // namespace

command_t add_verify_command(CLI::App& root) {
  auto o = std::make_shared<proof_input_paths_t>();
  auto* app = root.add_subcommand(
      "verify", "Verify a proof; exit 0 valid, 1 invalid, 2 unreadable or malformed input");
  add_proof_input_options(app, *o);
  return {app, [o] { return run_verify(*o); }};
}

}  // namespace cuzk::cli
