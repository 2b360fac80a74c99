// cuzk circuits
#include "circuits/circuit_registry.hpp"
#include "cli/cli_support.hpp"
#include "cli/command.hpp"

namespace cuzk::cli {
namespace {

// What --size and --input mean per circuit; the registry only knows names.
struct circuit_usage {
  const char* name;
  const char* size;
  const char* input;
};
constexpr circuit_usage usages[] = {
    {"tiny", "ignored", R"({"x": "<decimal>"})"},
    {"hash-chain", "rows of the proving system, default 65536 (= domain size when a power of two)",
     R"({"x0": "<decimal>"})"},
};

int run_circuits() {
  for (const auto& name : circuits::circuit_names()) {
    fmt::print("{}\n  {}\n", name, circuits::make_circuit(name)->description());
    for (const auto& u : usages) {
      if (name == u.name) fmt::print("  --size: {}\n  --input: {}\n", u.size, u.input);
    }
  }
  // Not in circuit_names(): it has no built-in witness, so only setup takes it by name.
  fmt::print("porep\n  Filecoin's stacked PoRep partition circuit (setup only; prove with "
             "`cuzk prove --kind porep --vanilla FILE`, inspect with `cuzk circuit-info`)\n"
             "  --size: sector size in bytes: 2048, 8388608, 536870912, 34359738368 or 68719476736\n");
  return exit_ok;
}

}  // namespace

command_t add_circuits_command(CLI::App& root) {
  auto* app = root.add_subcommand("circuits", "List the built-in circuits");
  return {app, [] { return run_circuits(); }};
}

}  // namespace cuzk::cli
