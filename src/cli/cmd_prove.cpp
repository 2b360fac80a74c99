// cuzk prove --circuit NAME [--size N] --params FILE [--input FILE] --proof FILE --public FILE [--no-verify]
#include <memory>
#include <nlohmann/json.hpp>

#include "circuits/circuit_input.hpp"
#include "circuits/circuit_registry.hpp"
#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "cli/file_io.hpp"
#include "cli/proof_file.hpp"
#include "ec/encoding.hpp"
#include "groth16/groth16.hpp"

namespace cuzk::cli {
namespace {

struct prove_options {
  std::string circuit, params, input, proof, public_path;
  size_t size = 0;
  bool no_verify = false;
};

int run_prove(const prove_options& o) {
  auto circuit = o.input.empty() ? circuits::make_circuit(o.circuit, o.size)
                                 : circuits::make_circuit_with_input(o.circuit, o.size, read_json_file(o.input));
  fmt::print("circuit: {}\n", circuit->description());
  stopwatch sw;
  auto params = groth16::read_parameters(o.params);
  double t_load = sw.lap();
  auto witness = groth16::synthesize_witness(*circuit);
  double t_synth = sw.lap();
  auto pending = groth16::prove_start(params, std::move(witness));
  double t_start = sw.lap();
  const std::vector<ff::fr_t> inputs = pending.public_inputs;
  groth16::os_rng rng;  // fresh r, s per proof: zero knowledge needs them secret and uniform
  ff::fr_t r = ff::fr_t::random(rng), s = ff::fr_t::random(rng);
  auto proof = groth16::finalize(params, std::move(pending), r, s);
  double t_final = sw.lap();

  fmt::print("timings:\n");
  print_timing("load params", t_load);
  print_timing("synthesis", t_synth);
  print_timing("prove_start", t_start);
  print_timing("finalize", t_final);
  if (!o.no_verify) {
    bool ok = groth16::verify(params.vk, proof, inputs);
    print_timing("verify", sw.lap());
    if (!ok) {
      return report_error(o.params + ": the proof does not verify against this parameter file's key "
                          "(parameters made for another circuit?); nothing written", exit_invalid);
    }
  }
  write_proof(o.proof, proof);
  groth16::write_public_inputs(o.public_path, inputs);
  fmt::print("proof: {}\n", ec::to_hex(proof.encode()));
  fmt::print("wrote {} and {}\n", o.proof, o.public_path);
  return exit_ok;
}

}  // namespace

command_t add_prove_command(CLI::App& root) {
  auto o = std::make_shared<prove_options>();
  auto* app = root.add_subcommand("prove", "Prove a built-in circuit: synthesis, prove_start, finalize, verify");
  app->add_option("--circuit", o->circuit, "Circuit name (see `cuzk circuits`)")->required();
  app->add_option("--size", o->size, "Circuit size, as given to setup")->check(CLI::NonNegativeNumber);
  app->add_option("--params", o->params, "Parameter file from `cuzk setup`")->required();
  app->add_option("--input", o->input,
                  "JSON private input: {\"x\": \"<decimal>\"} for tiny, {\"x0\": \"<decimal>\"} for hash-chain "
                  "(default: the circuit's built-in witness)");
  app->add_option("--proof", o->proof, "Output proof file (192 raw bytes)")->required();
  app->add_option("--public", o->public_path, "Output public inputs (JSON array of decimal strings)")->required();
  app->add_flag("--no-verify", o->no_verify, "Skip verifying the proof before writing it");
  return {app, [o] { return run_prove(*o); }};
}

}  // namespace cuzk::cli
