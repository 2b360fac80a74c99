// `cuzk`: parse, dispatch to the chosen subcommand, and turn exceptions into
// exit codes (cli_support.hpp) so no input makes the tool crash.
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "groth16/format_error.hpp"
#include "r1cs/synthesis_error.hpp"

namespace {

int run_guarded(const cuzk::cli::command_t& cmd) {
  using namespace cuzk::cli;
  try {
    return cmd.run();
  } catch (const cuzk::groth16::format_error& e) {
    return report_error(e.what());
  } catch (const std::invalid_argument& e) {
    return report_error(e.what());
  } catch (const cuzk::r1cs::synthesis_error& e) {
    return report_error(e.what());
  } catch (const nlohmann::json::exception& e) {
    return report_error(e.what());
  } catch (const std::bad_alloc&) {
    return report_error("out of memory", exit_internal);
  } catch (const std::exception& e) {
    return report_error(std::string("internal: ") + e.what(), exit_internal);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cuzk::cli;
  // Before any CUDA call: the hardware queues the driver gives the device
  // (default 8; 32 is the most it takes; a value the user set is kept). The
  // engine makes more streams than 8, and streams that share a queue run in
  // turn. Measured on an H100 (driver 580.159.04, 2026-12-07): 48 streams
  // live at once never waited for a busy one's kernels at 8 or at 32 queues,
  // so this is a precaution for other drivers, not a measured gain here.
  setenv("CUDA_DEVICE_MAX_CONNECTIONS", "32", 0);
  CLI::App app{"cuzk: Groth16 prover over BLS12-381.\n"
               "Exit codes: 0 ok or valid, 1 proof does not verify, 2 bad input or usage, 3 internal error."};
  app.require_subcommand(1);
  const std::vector<command_t> commands = {
      add_setup_command(app),          add_prove_command(app), add_verify_command(app),
      add_decode_proof_command(app),   add_export_snarkjs_command(app),
      add_info_command(app),           add_circuits_command(app), add_demo_command(app),
      add_gen_vanilla_command(app),    add_check_vanilla_command(app),
      add_daemon_command(app),         add_status_command(app), add_metrics_command(app),
      add_bench_command(app),          add_plot_command(app),
      add_circuit_info_command(app),   add_params_command(app),        add_compat_check_command(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help is a "parse error" with exit code 0; real usage errors map to 2.
    return app.exit(e) == 0 ? exit_ok : exit_bad_input;
  }
  for (const auto& cmd : commands) {
    if (cmd.app->parsed()) return run_guarded(cmd);
  }
  return report_error("no command given (see --help)");
}
