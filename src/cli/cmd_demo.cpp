// cuzk demo [--circuit hash-chain] [--size 65536] [--cache-dir DIR]
//
// The main job on an embedded default: development parameters from a fixed
// seed, cached so a second run measures only proving; then prove, verify and
// print the stage timings and the proof.
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "circuits/circuit_registry.hpp"
#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "ec/encoding.hpp"
#include "groth16/groth16.hpp"

namespace cuzk::cli {
namespace {

namespace fs = std::filesystem;

// "czk-demo": fixed so every run and every machine shares one cache file.
constexpr uint64_t demo_seed = 0x637a6b2d64656d6f;

struct demo_options {
  std::string circuit = "hash-chain";
  size_t size = circuits::default_hash_chain_size;
  std::string cache_dir = ".cache/cuzk";
};

fs::path cache_path(const demo_options& o) {
  std::string name = o.circuit == "tiny" ? "tiny" : fmt::format("{}-{}", o.circuit, o.size);
  return fs::path(o.cache_dir) / fmt::format("{}-{:016x}.params", name, demo_seed);
}

// A cached file that fails to parse is replaced; a half-written one never
// appears because the new file is renamed into place.
std::optional<groth16::parameters_t> load_cached(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  try {
    return groth16::read_parameters(path.string());
  } catch (const groth16::format_error& e) {
    fmt::print("cache: {}; regenerating\n", e.what());
    return std::nullopt;
  }
}

groth16::parameters_t generate_and_store(const circuits::any_circuit& circuit, const fs::path& path) {
  groth16::seeded_rng rng(demo_seed);
  auto params = groth16::generate_parameters(circuit, groth16::toxic_waste_t::random(rng));
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) throw groth16::format_error(path.parent_path().string(), "cannot create directory: " + ec.message());
  const fs::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
  try {
    groth16::write_parameters(tmp.string(), params);
  } catch (...) {
    fs::remove(tmp, ec);
    throw;
  }
  fs::rename(tmp, path, ec);
  if (ec) throw groth16::format_error(path.string(), "cannot rename into place: " + ec.message());
  return params;
}

struct demo_proof {
  groth16::proof_t proof;
  std::vector<ff::fr_t> inputs;
  bool valid = false;
};

demo_proof prove_and_verify(const groth16::parameters_t& params, const circuits::any_circuit& circuit) {
  stopwatch sw;
  auto witness = groth16::synthesize_witness(circuit);
  print_timing("synthesis", sw.lap());
  auto pending = groth16::prove_start(params, std::move(witness));
  print_timing("prove_start", sw.lap());
  demo_proof out;
  out.inputs = pending.public_inputs;
  groth16::os_rng rng;
  ff::fr_t r = ff::fr_t::random(rng), s = ff::fr_t::random(rng);
  out.proof = groth16::finalize(params, std::move(pending), r, s);
  print_timing("finalize", sw.lap());
  out.valid = groth16::verify(params.vk, out.proof, out.inputs);
  print_timing("verify", sw.lap());
  return out;
}

int run_demo(const demo_options& o) {
  auto circuit = circuits::make_circuit(o.circuit, o.size);
  fmt::print("circuit: {}\n", circuit->description());
  const fs::path path = cache_path(o);
  fmt::print("parameters: {} (development only: fixed seed)\n", path.string());
  fmt::print("timings:\n");
  stopwatch sw;
  auto params = load_cached(path);
  const bool cached = params.has_value();
  if (cached) {
    print_timing("load", sw.lap());
  } else {
    params = generate_and_store(*circuit, path);
    print_timing("setup", sw.lap());
  }
  demo_proof result = prove_and_verify(*params, *circuit);
  if (!result.valid && cached) {
    // A cache from an older build whose circuit changed but kept its shape.
    fmt::print("cached parameters do not fit this build's circuit; regenerating\n");
    params = generate_and_store(*circuit, path);
    print_timing("setup", sw.lap());
    result = prove_and_verify(*params, *circuit);
  }
  fmt::print("public inputs: {}", groth16::format_public_inputs(result.inputs));
  fmt::print("proof: {}\n", ec::to_hex(result.proof.encode()));
  if (!result.valid) return report_error("the proof does not verify", exit_internal);
  fmt::print("proof verifies\n");
  return exit_ok;
}

}  // namespace

command_t add_demo_command(CLI::App& root) {
  auto o = std::make_shared<demo_options>();
  auto* app = root.add_subcommand(
      "demo", "Set up (or load cached development parameters), prove, verify, and print timings and the proof");
  app->add_option("--circuit", o->circuit, "Circuit name (see `cuzk circuits`)")->capture_default_str();
  app->add_option("--size", o->size, "Circuit size")->capture_default_str()->check(CLI::NonNegativeNumber);
  app->add_option("--cache-dir", o->cache_dir, "Where development parameters are cached")->capture_default_str();
  return {app, [o] { return run_demo(*o); }};
}

}  // namespace cuzk::cli
