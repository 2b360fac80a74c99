#pragma once
// A `cuzk` subcommand: its CLI11 parser, whose options write into state owned
// by `run`, and the action main() calls after a successful parse. Each
// command lives in its own cmd_*.cpp.
#include <CLI/CLI.hpp>
#include <functional>

namespace cuzk::cli {

struct command_t {
  CLI::App* app;
  std::function<int()> run;  // returns the process exit code
};

command_t add_setup_command(CLI::App& root);
command_t add_prove_command(CLI::App& root);
command_t add_verify_command(CLI::App& root);
command_t add_decode_proof_command(CLI::App& root);
command_t add_export_snarkjs_command(CLI::App& root);
command_t add_info_command(CLI::App& root);
command_t add_circuits_command(CLI::App& root);
command_t add_demo_command(CLI::App& root);
command_t add_circuit_info_command(CLI::App& root);
command_t add_gen_vanilla_command(CLI::App& root);
command_t add_check_vanilla_command(CLI::App& root);
command_t add_daemon_command(CLI::App& root);
command_t add_status_command(CLI::App& root);
command_t add_metrics_command(CLI::App& root);
command_t add_bench_command(CLI::App& root);
command_t add_plot_command(CLI::App& root);
command_t add_params_command(CLI::App& root);
command_t add_compat_check_command(CLI::App& root);

}  // namespace cuzk::cli
