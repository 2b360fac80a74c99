// cuzk gen-vanilla porep --sector-size S --out FILE [--seed N] [--sparse]
// cuzk check-vanilla FILE
// Synthetic PoRep commit inputs (the C1-output equivalent) and their checker;
// format: src/porep/vanilla_format.md.
#include <memory>
#include <stdexcept>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "porep/vanilla_checker.hpp"
#include "porep/vanilla_generator.hpp"
#include "porep/vanilla_json.hpp"

namespace cuzk::cli {
namespace {

struct gen_vanilla_args_t {
  std::string kind;
  std::string sector_size;
  std::string out;
  std::uint64_t seed = 0;
  bool sparse = false;
};

int run_gen_vanilla(const gen_vanilla_args_t& a) {
  if (a.kind != "porep") return report_error("gen-vanilla: unknown proof kind '" + a.kind + "' (supported: porep)");
  const auto params = porep::sector_params_for(porep::parse_sector_size(a.sector_size));
  stopwatch sw;
  auto proof = a.sparse ? porep::generate_sparse(params, a.seed) : porep::generate_vanilla(params, a.seed);
  const double gen_ms = sw.lap();
  porep::write_vanilla_file(a.out, proof);
  fmt::print("{}: {} sector, {} model, {} partitions x {} challenges, seed {}\n", a.out, a.sector_size, proof.model,
             params.partitions, params.challenges_per_partition, a.seed);
  print_timing("generate", gen_ms);
  print_timing("write", sw.lap());
  return exit_ok;
}

int run_check_vanilla(const std::string& file) {
  stopwatch sw;
  const auto proof = porep::read_vanilla_file(file);
  const double read_ms = sw.lap();
  if (auto f = porep::check_vanilla(proof)) return report_error(file + ": " + f->element + ": " + f->reason);
  fmt::print("{}: valid ({} bytes sector, {} model, {} partitions x {} challenges)\n", file, proof.params.sector_bytes,
             proof.model, proof.params.partitions, proof.params.challenges_per_partition);
  print_timing("read", read_ms);
  print_timing("check", sw.lap());
  return exit_ok;
}

}  // namespace

command_t add_gen_vanilla_command(CLI::App& root) {
  auto a = std::make_shared<gen_vanilla_args_t>();
  auto* app = root.add_subcommand("gen-vanilla", "Generate a synthetic sector's vanilla proof (commit inputs) as JSON");
  app->add_option("kind", a->kind, "Proof kind: porep")->required();
  app->add_option("--sector-size", a->sector_size, "2KiB, 8MiB, 512MiB, 32GiB, 64GiB or a byte count")->required();
  app->add_option("--out", a->out, "Output JSON file")->required();
  app->add_option("--seed", a->seed, "Seed of every random choice (default 0)");
  app->add_flag("--sparse", a->sparse, "Sparse model even for 2KiB/8MiB (default: full replication up to 8MiB)");
  return {app, [a] { return run_gen_vanilla(*a); }};
}

command_t add_check_vanilla_command(CLI::App& root) {
  auto file = std::make_shared<std::string>();
  auto* app = root.add_subcommand("check-vanilla",
                                  "Validate a vanilla proof file (exit 0 valid, 2 with the first bad element named)");
  app->add_option("file", *file, "Vanilla proof JSON")->required();
  return {app, [file] { return run_check_vanilla(*file); }};
}

}  // namespace cuzk::cli
