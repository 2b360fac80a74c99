// cuzk setup --circuit NAME [--size N] [--seed N] [--backend auto|cpu|cuda] --params FILE --vk FILE
// cuzk setup --circuit porep|window-post|winning-post|snap --size N [...] --official-names DIR
//   writes DIR/v28-stacked-proof-of-replication-…{.params,.vk} (PoSt:
//   DIR/v28-proof-of-spacetime-fallback-…): development
//   parameters under the official names (with a .development marker beside
//   each, so `cuzk params check` names them as such), for a daemon whose
//   param_cache expects Filecoin's files.
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

#include "circuits/circuit_registry.hpp"
#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "engine/gpu_backend_t.hpp"
#include "filecoin/parameter_digest.hpp"
#include "filecoin/parameter_manifest_t.hpp"
#include "groth16/gpu_setup.hpp"
#include "groth16/groth16.hpp"

namespace cuzk::cli {
namespace {

struct setup_options {
  std::string circuit, params, vk, official_dir, backend = "auto";
  size_t size = 0;
  uint64_t seed = 0;
  CLI::Option* seed_given = nullptr;
};

constexpr const char* not_ceremony_banner =
    "\n"
    "  *****************************************************************************\n"
    "  **  DEVELOPMENT PARAMETERS under Filecoin's official file names.           **\n"
    "  **  They are NOT the trusted-setup ceremony's: proofs made with them do    **\n"
    "  **  not verify on chain, their digests do not match parameters.json, and   **\n"
    "  **  whoever knows the toxic waste can forge proofs. Never put them where   **\n"
    "  **  a production prover looks for parameters.                              **\n"
    "  *****************************************************************************\n\n";

// The circuits with official parameter files, by --circuit name.
std::optional<filecoin::parameter_kind_t> official_kind(const std::string& circuit) {
  if (circuit == "porep") return filecoin::parameter_kind_t::porep;
  if (circuit == "window-post") return filecoin::parameter_kind_t::window_post;
  if (circuit == "winning-post") return filecoin::parameter_kind_t::winning_post;
  if (circuit == "snap") return filecoin::parameter_kind_t::snap_deals;
  return std::nullopt;
}

// --official-names DIR: the output paths, and the checks that the circuit has official names.
int resolve_official_names(setup_options& o) {
  const auto kind = official_kind(o.circuit);
  if (!kind) {
    return report_error("--official-names: only --circuit porep, window-post, winning-post and snap have official "
                        "parameter files (got '" + o.circuit + "')");
  }
  // The default size is make_circuit's for these circuits.
  const std::uint64_t sector = o.size ? o.size : circuits::default_porep_sector_bytes;
  filecoin::parameter_files_t files;
  try {
    files = filecoin::parameter_files(*kind, sector);
  } catch (const std::invalid_argument& e) {
    return report_error(std::string("--official-names: ") + e.what());
  }
  std::error_code ec;
  std::filesystem::create_directories(o.official_dir, ec);
  if (ec) return report_error("--official-names: cannot create " + o.official_dir + ": " + ec.message());
  o.params = (std::filesystem::path(o.official_dir) / files.params).string();
  o.vk = (std::filesystem::path(o.official_dir) / files.vk).string();
  fmt::print(stderr, "{}", not_ceremony_banner);
  return exit_ok;
}

void write_development_marker(const std::string& path) {
  const std::string marker = path + std::string(filecoin::development_marker_suffix);
  std::ofstream out(marker, std::ios::trunc);
  out << filecoin::file_parameter_digest(path) << "\n"
      << "development parameters written by `cuzk setup`, not the ceremony's\n";
  if (!out) throw std::runtime_error("cannot write " + marker);
}

int run_setup(setup_options o) {
  if (!o.official_dir.empty()) {
    if (!o.params.empty() || !o.vk.empty()) return report_error("--official-names replaces --params and --vk");
    if (int rc = resolve_official_names(o); rc != exit_ok) return rc;
  } else if (o.params.empty() || o.vk.empty()) {
    return report_error("give --params FILE and --vk FILE, or --official-names DIR");
  }
  auto circuit = circuits::make_circuit(o.circuit, o.size);
  fmt::print("circuit: {}\n", circuit->description());
  stopwatch sw;
  groth16::toxic_waste_t tw;
  if (o.seed_given->count()) {
    // Anyone who knows the seed can forge proofs: development parameters only.
    fmt::print(stderr, "warning: toxic waste derived from --seed {}; these parameters are for development only\n",
               o.seed);
    groth16::seeded_rng rng(o.seed);
    tw = groth16::toxic_waste_t::random(rng);
  } else {
    groth16::os_rng rng;
    tw = groth16::toxic_waste_t::random(rng);
  }
  // The same parameters either way (gpu_setup.hpp); the GPU only does the fixed-base multiplications.
  const bool on_gpu = o.backend == "cuda" || (o.backend == "auto" && engine::gpu_available());
  if (o.backend == "cuda" && !engine::gpu_available()) {
    fmt::print(stderr, "error: --backend cuda: no GPU of compute capability >= 9.0 (or built without CUDA)\n");
    return exit_bad_input;
  }
  fmt::print("setup on the {}\n", on_gpu ? "GPU" : "CPU");
  std::vector<std::pair<std::string, double>> stages;
  auto params = on_gpu ? groth16::generate_parameters_gpu(*circuit, tw, &stages)
                       : groth16::generate_parameters(*circuit, tw, {}, &stages);
  double t_setup = sw.lap();
  groth16::write_parameters(o.params, params);
  groth16::write_verifying_key(o.vk, params.vk);
  if (!o.official_dir.empty()) {
    write_development_marker(o.params);
    write_development_marker(o.vk);
  }
  double t_write = sw.lap();

  fmt::print("public inputs: {}; h {}, l {}, a {}, b_g1 {}, b_g2 {}\n", params.vk.num_public_inputs(),
             params.h.size(), params.l.size(), params.a.size(), params.b_g1.size(), params.b_g2.size());
  fmt::print("wrote {} ({} bytes) and {} ({} bytes)\n", o.params, std::filesystem::file_size(o.params), o.vk,
             std::filesystem::file_size(o.vk));
  fmt::print("timings:\n");
  print_timing("setup", t_setup);
  for (const auto& [stage, ms] : stages) print_timing("  " + stage, ms);
  print_timing("write", t_write);
  if (!o.official_dir.empty()) {
    fmt::print(stderr,
               "warning: {} and {} are DEVELOPMENT parameters under the official names, not the ceremony's "
               "(`cuzk params check` reports them as development)\n",
               o.params, o.vk);
  }
  return exit_ok;
}

}  // namespace

command_t add_setup_command(CLI::App& root) {
  auto o = std::make_shared<setup_options>();
  auto* app = root.add_subcommand("setup", "Generate Groth16 parameters and a verifying key for a built-in circuit");
  app->add_option("--circuit", o->circuit, "Circuit name (see `cuzk circuits`)")->required();
  app->add_option("--size", o->size,
                  "Circuit size: rows of the proving system for hash-chain (default 65536); sector bytes for porep, "
                  "window-post, winning-post and snap (default 2048)")
      ->check(CLI::NonNegativeNumber);
  o->seed_given = app->add_option("--seed", o->seed,
                                  "Derive the toxic waste from this seed (reproducible, development only); "
                                  "default: the OS CSPRNG")
                      ->check(CLI::NonNegativeNumber);
  app->add_option("--backend", o->backend, "Fixed-base multiplications on: auto (GPU when present), cpu or cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  app->add_option("--params", o->params, "Output parameter file (bellperson layout)");
  app->add_option("--vk", o->vk, "Output verifying-key file");
  app->add_option("--official-names", o->official_dir,
                  "Instead of --params/--vk: write DIR/<official name>.params and .vk (--circuit porep, "
                  "window-post, winning-post or snap, --size = sector bytes), "
                  "DEVELOPMENT parameters under Filecoin's file names, marked as such, not the ceremony's");
  return {app, [o] { return run_setup(*o); }};
}

}  // namespace cuzk::cli
