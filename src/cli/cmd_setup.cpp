// cuzk setup --circuit NAME [--size N] [--seed N] [--backend auto|cpu|cuda] --params FILE --vk FILE
#include <filesystem>
#include <memory>

#include "circuits/circuit_registry.hpp"
#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "engine/gpu_backend_t.hpp"
#include "groth16/gpu_setup.hpp"
#include "groth16/groth16.hpp"

namespace cuzk::cli {
namespace {

struct setup_options {
  std::string circuit, params, vk, backend = "auto";
  size_t size = 0;
  uint64_t seed = 0;
  CLI::Option* seed_given = nullptr;
};

int run_setup(const setup_options& o) {
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
  auto params = on_gpu ? groth16::generate_parameters_gpu(*circuit, tw) : groth16::generate_parameters(*circuit, tw);
  double t_setup = sw.lap();
  groth16::write_parameters(o.params, params);
  groth16::write_verifying_key(o.vk, params.vk);
  double t_write = sw.lap();

  fmt::print("public inputs: {}; h {}, l {}, a {}, b_g1 {}, b_g2 {}\n", params.vk.num_public_inputs(),
             params.h.size(), params.l.size(), params.a.size(), params.b_g1.size(), params.b_g2.size());
  fmt::print("wrote {} ({} bytes) and {} ({} bytes)\n", o.params, std::filesystem::file_size(o.params), o.vk,
             std::filesystem::file_size(o.vk));
  fmt::print("timings:\n");
  print_timing("setup", t_setup);
  print_timing("write", t_write);
  return exit_ok;
}

}  // namespace

command_t add_setup_command(CLI::App& root) {
  auto o = std::make_shared<setup_options>();
  auto* app = root.add_subcommand("setup", "Generate Groth16 parameters and a verifying key for a built-in circuit");
  app->add_option("--circuit", o->circuit, "Circuit name (see `cuzk circuits`)")->required();
  app->add_option("--size", o->size, "Circuit size: rows of the proving system for hash-chain (default 65536)")
      ->check(CLI::NonNegativeNumber);
  o->seed_given = app->add_option("--seed", o->seed,
                                  "Derive the toxic waste from this seed (reproducible, development only); "
                                  "default: the OS CSPRNG")
                      ->check(CLI::NonNegativeNumber);
  app->add_option("--backend", o->backend, "Fixed-base multiplications on: auto (GPU when present), cpu or cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  app->add_option("--params", o->params, "Output parameter file (bellperson layout)")->required();
  app->add_option("--vk", o->vk, "Output verifying-key file")->required();
  return {app, [o] { return run_setup(*o); }};
}

}  // namespace cuzk::cli
