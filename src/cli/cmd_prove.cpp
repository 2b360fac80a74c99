// cuzk prove --circuit NAME [--size N] --params FILE [--input FILE] --proof FILE --public FILE [--no-verify]
// cuzk prove [--kind porep] --c1 FILE --params FILE --proof FILE --public FILE [--miner-id N --sector-num N] [--no-verify]
// cuzk prove --kind window-post|winning-post --registered N --randomness HEX --miner-id N [--partition K]
//            --params FILE --proof FILE --public FILE SECTOR.vproof...
// cuzk prove --kind snap --registered N --comm-r-old HEX --comm-r-new HEX --comm-d-new HEX
//            --params FILE --proof FILE --public FILE PARTITION.vproof...
#include <algorithm>
#include <bit>
#include <memory>
#include <nlohmann/json.hpp>

#include "circuits/circuit_input.hpp"
#include "circuits/circuit_model.hpp"
#include "circuits/circuit_registry.hpp"
#include "circuits/porep_circuit.hpp"
#include "circuits/porep_synthesizer_t.hpp"
#include "circuits/porep_vanilla_witness.hpp"
#include "circuits/post_partition_circuit_t.hpp"
#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "cli/file_io.hpp"
#include "cli/post_files.hpp"
#include "cli/snap_files.hpp"
#include "circuits/snap_circuit.hpp"
#include "circuits/snap_partition_circuit_t.hpp"
#include "cli/proof_file.hpp"
#include "ec/encoding.hpp"
#include "groth16/groth16.hpp"
#include "engine/param_store_t.hpp"
#include "filecoin/porep_input.hpp"

namespace cuzk::cli {
namespace {

struct prove_options {
  std::string circuit, kind, vanilla, params, input, proof, public_path;
  size_t size = 0;
  std::uint64_t miner_id = 0, sector_num = 0;
  std::string registered;
  // PoSt
  std::string randomness;
  // snap
  std::string comm_r_old, comm_r_new, comm_d_new;
  unsigned partition = 0;
  std::vector<std::string> files;
  bool no_verify = false;
  bool trusted_params = false;
};

ec::subgroup_check params_check(const prove_options& o) {
  return o.trusted_params ? ec::subgroup_check::skip : ec::subgroup_check::check;
}

// Partition k > 0 of a multi-partition proof goes to "<path>.<k>".
std::string partition_path(const std::string& path, unsigned k) {
  return k == 0 ? path : path + "." + std::to_string(k);
}

// One proof: synthesis (reserved from the shape when known), prove_start, finalize, verify, write.
int prove_one(const prove_options& o, const circuits::any_circuit& circuit, const groth16::parameters_t& params,
              r1cs::witness_cs&& witness, double t_synth, unsigned k) {
  if (witness.is_deferred()) {
    // The compact witness (issue 18): what is held between synthesis and
    // prove_start, against the rows and assignment the eager path holds.
    const auto& aux = witness.compact_aux();
    const std::size_t domain = std::bit_ceil(std::max<std::size_t>(witness.num_constraints(), 2));
    const std::size_t eager = 32 * (3 * domain + witness.num_inputs() + witness.num_aux());
    fmt::print("witness: {} aux, {} not 0/1 ({:.1f} %); compact {:.1f} MiB held until prove_start, eager {:.1f} MiB\n",
               aux.size(), aux.wide_count(), aux.size() ? 100.0 * double(aux.wide_count()) / double(aux.size()) : 0.0,
               double(witness.bytes()) / double(1 << 20), double(eager) / double(1 << 20));
  }
  stopwatch sw;
  auto pending = groth16::prove_start(params, std::move(witness));
  double t_start = sw.lap();
  const std::vector<ff::fr_t> inputs = pending.public_inputs;
  const auto pending_stages = pending.stage_ms;
  groth16::os_rng rng;  // fresh r, s per proof: zero knowledge needs them secret and uniform
  ff::fr_t r = ff::fr_t::random(rng), s = ff::fr_t::random(rng);
  auto proof = groth16::finalize(params, std::move(pending), r, s);
  double t_final = sw.lap();

  fmt::print("timings:\n");
  print_timing("synthesis", t_synth);
  print_timing("prove_start", t_start);
  for (const auto& [stage, ms] : pending_stages) print_timing("  " + stage, ms);
  print_timing("finalize", t_final);
  if (!o.no_verify) {
    bool ok = groth16::verify(params.vk, proof, inputs);
    print_timing("verify", sw.lap());
    if (!ok) {
      return report_error(o.params + ": the proof does not verify against this parameter file's key "
                          "(parameters made for another circuit?); nothing written", exit_invalid);
    }
  }
  const std::string proof_path = partition_path(o.proof, k), public_path = partition_path(o.public_path, k);
  write_proof(proof_path, proof);
  groth16::write_public_inputs(public_path, inputs);
  fmt::print("proof: {}\n", ec::to_hex(proof.encode()));
  fmt::print("wrote {} and {}\n", proof_path, public_path);
  return exit_ok;
}

int run_prove_circuit(const prove_options& o) {
  auto circuit = o.input.empty() ? circuits::make_circuit(o.circuit, o.size)
                                 : circuits::make_circuit_with_input(o.circuit, o.size, read_json_file(o.input));
  fmt::print("circuit: {}\n", circuit->description());
  stopwatch sw;
  auto params = groth16::read_parameters(o.params, params_check(o));
  print_timing("load params", sw.lap());
  auto witness = groth16::synthesize_witness(*circuit);
  return prove_one(o, *circuit, params, std::move(witness), sw.lap(), 0);
}

// Every partition of a PoRep C1 output (Curio envelope, bare C1 JSON or our
// vanilla JSON), one Groth16 proof each, after checking every value of it
// (filecoin/porep_input.hpp).
int run_prove_porep(const prove_options& o) {
  stopwatch sw;
  const std::string text = read_text_file(o.vanilla);
  filecoin::porep_input_t in;
  try {
    const auto registered = filecoin::parse_registered_seal_proof(o.registered);
    in = filecoin::read_porep_input({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}, registered);
    filecoin::check_porep_request(
        in, {.registered_proof = registered.value_or(0), .miner_id = o.miner_id, .sector_number = o.sector_num});
  } catch (const std::invalid_argument& e) {
    return report_error(o.vanilla + ": " + e.what());
  }
  const porep::vanilla_proof_t& vanilla = in.vanilla;
  fmt::print("{}: {}{}\n", o.vanilla, to_string(in.format), in.c1 ? ", " + in.c1->proof.name() : std::string());
  print_timing("read+check", sw.lap());
  // An official file whose digest matches parameters.json skips the subgroup
  // checks by itself (engine::read_parameter_file); --trusted-params skips them for any file.
  auto params = o.trusted_params ? groth16::read_parameters(o.params, params_check(o))
                                 : engine::read_parameter_file(o.params);
  print_timing("load params", sw.lap());
  // The compiled path (circuits/porep_synthesizer_t.hpp): the circuit's
  // matrices once, then per partition only values and A·w, B·w, C·w.
  const auto synthesizer = circuits::porep_synthesizer_t::for_sector(vanilla.params);
  print_timing("compile circuit", sw.lap());
  for (unsigned k = 0; k < vanilla.partitions.size(); ++k) {
    circuits::circuit_model<circuits::porep_circuit> circuit("porep", synthesizer->circuit(vanilla, k));
    fmt::print("partition {}: {}\n", k, circuit.description());
    sw.lap();
    r1cs::witness_cs witness = synthesizer->synthesize_compact(circuit.circuit());
    if (int rc = prove_one(o, circuit, params, std::move(witness), sw.lap(), k); rc != exit_ok) return rc;
  }
  return exit_ok;
}

// One PoSt partition of the sectors' vanilla proofs, read and checked as the
// daemon reads a Prove request (filecoin/post_input.hpp); the public inputs
// written are the ones a verifier derives from comm_r and the challenges.
int run_prove_post(const prove_options& o) {
  if (o.files.empty()) return report_error("prove --kind " + o.kind + " needs the sectors' .vproof files");
  if (!o.circuit.empty() || !o.input.empty() || !o.vanilla.empty())
    return report_error("prove --kind " + o.kind + " takes no --circuit, --input or --c1");
  stopwatch sw;
  filecoin::post_input_t in;
  try {
    in = read_post_files({.kind = parse_post_kind(o.kind),
                          .registered = o.registered,
                          .randomness = o.randomness,
                          .miner_id = o.miner_id,
                          .files = o.files},
                         o.partition);
  } catch (const std::invalid_argument& e) {
    return report_error(e.what());
  }
  fmt::print("{} partition {}: {} of {} sectors\n", in.proof->ffi_name(), o.partition, in.real_sectors,
             in.shape.sectors_per_partition);
  print_timing("read+check", sw.lap());
  auto params = o.trusted_params ? groth16::read_parameters(o.params, params_check(o))
                                 : engine::read_parameter_file(o.params);
  print_timing("load params", sw.lap());
  const auto public_inputs = in.public_inputs;
  circuits::post_partition_circuit_t circuit(circuits::post_circuit(
      in.shape, std::make_shared<const circuits::post_circuit::witness_t>(std::move(in.sectors))));
  fmt::print("circuit: {}\n", circuit.description());
  sw.lap();
  auto witness = circuit.prove_witness_compact(circuit.prove_shape());  // the compiled path, as the engine's CPU backend proves
  if (circuit.public_inputs() != public_inputs)
    return report_error("internal: the circuit's public inputs are not the request's", exit_internal);
  return prove_one(o, circuit, params, std::move(witness), sw.lap(), 0);
}

// Every partition of a SnapDeals update (one .vproof per partition, in
// order), read and checked as the daemon reads the request
// (filecoin/snap_input.hpp); partition k's proof and public inputs go to
// <path>.<k> for k > 0, as for PoRep.
int run_prove_snap(const prove_options& o) {
  if (o.files.empty()) return report_error("prove --kind snap needs the partitions' .vproof files");
  if (!o.circuit.empty() || !o.input.empty() || !o.vanilla.empty())
    return report_error("prove --kind snap takes no --circuit, --input or --c1");
  stopwatch sw;
  filecoin::snap_input_t in;
  try {
    in = read_snap_files({.registered = o.registered,
                          .comm_r_old = o.comm_r_old,
                          .comm_r_new = o.comm_r_new,
                          .comm_d_new = o.comm_d_new,
                          .files = o.files});
  } catch (const std::invalid_argument& e) {
    return report_error(e.what());
  }
  fmt::print("{}: {} partition(s)\n", in.proof->name(), in.shape.partitions);
  print_timing("read+check", sw.lap());
  auto params = o.trusted_params ? groth16::read_parameters(o.params, params_check(o))
                                 : engine::read_parameter_file(o.params);
  print_timing("load params", sw.lap());
  for (unsigned k = 0; k < in.partitions.size(); ++k) {
    const circuits::snap_partition_circuit_t circuit(
        circuits::snap_circuit(in.shape, std::make_shared<const circuits::snap_witness_t>(in.partitions[k])));
    fmt::print("partition {}: {}\n", k, circuit.description());
    sw.lap();
    auto witness = circuit.prove_witness(circuit.prove_shape());
    if (int rc = prove_one(o, circuit, params, std::move(witness), sw.lap(), k); rc != exit_ok) return rc;
  }
  return exit_ok;
}

int run_prove(const prove_options& o) {
  if (o.kind == "window-post" || o.kind == "winning-post") return run_prove_post(o);
  if (o.kind == "snap") return run_prove_snap(o);
  if (!o.files.empty()) return report_error("prove: vanilla files are for --kind window-post, winning-post or snap");
  if (!o.kind.empty()) {
    if (o.kind != "porep")
      return report_error("prove: unknown --kind '" + o.kind + "' (known: porep, window-post, winning-post, snap)");
    if (o.vanilla.empty()) return report_error("prove --kind porep needs --c1 FILE (or --vanilla FILE)");
    if (!o.circuit.empty() || !o.input.empty()) return report_error("prove --kind porep takes no --circuit or --input");
    return run_prove_porep(o);
  }
  if (o.circuit.empty() && !o.vanilla.empty()) return run_prove_porep(o);
  if (o.circuit.empty()) return report_error("prove needs --circuit NAME, --c1 FILE or --kind porep");
  return run_prove_circuit(o);
}

}  // namespace

command_t add_prove_command(CLI::App& root) {
  auto o = std::make_shared<prove_options>();
  auto* app = root.add_subcommand("prove", "Prove a built-in circuit or a PoRep vanilla proof: synthesis, "
                                           "prove_start, finalize, verify");
  app->add_option("--circuit", o->circuit, "Circuit name (see `cuzk circuits`)");
  app->add_option("--kind", o->kind,
                  "Proof kind: porep (with --vanilla), window-post or winning-post (with the sectors' .vproof files), "
                  "snap (with the partitions' .vproof files)");
  app->add_option("files", o->files,
                  "PoSt: the sectors' vanilla proofs; snap: the partitions' (bincode, as `cuzk gen-vanilla` writes)");
  app->add_option("--comm-r-old", o->comm_r_old, "snap: the sector's CommR before the update, 64 hex digits (raw)");
  app->add_option("--comm-r-new", o->comm_r_new, "snap: the updated sector's CommR, 64 hex digits (raw)");
  app->add_option("--comm-d-new", o->comm_d_new, "snap: the new data's CommD, 64 hex digits (raw)");
  app->add_option("--randomness", o->randomness, "PoSt: the challenge randomness, 64 hex digits");
  app->add_option("--partition", o->partition, "WindowPoSt: the partition index of these sectors (default 0)");
  app->add_option("--c1,--vanilla", o->vanilla,
                  "PoRep commit inputs: a C1 output (filecoin-ffi JSON), Curio's envelope of one, or cuzk's vanilla "
                  "JSON (`cuzk gen-vanilla`); one proof per partition, partition k > 0 written to <proof>.k and "
                  "<public>.k");
  app->add_option("--miner-id", o->miner_id,
                  "With --sector-num (or the envelope's SectorNum): check the C1's replica_id against "
                  "prover_id(miner_id), the sector number and the C1's ticket");
  app->add_option("--sector-num", o->sector_num, "Sector number, for the replica_id check");
  app->add_option("--registered", o->registered,
                  "Registered seal proof (0-19 or a name): required for supra_seal's bincode C1, checked against "
                  "the others; with a PoSt --kind, the registered PoSt proof (0-14 or a name), required; with --kind "
                  "snap, the registered update proof (0-4 or a name), required");
  app->add_option("--size", o->size, "Circuit size, as given to setup")->check(CLI::NonNegativeNumber);
  app->add_option("--params", o->params, "Parameter file from `cuzk setup`")->required();
  app->add_option("--input", o->input,
                  "JSON private input: {\"x\": \"<decimal>\"} for tiny, {\"x0\": \"<decimal>\"} for hash-chain "
                  "(default: the circuit's built-in witness)");
  app->add_option("--proof", o->proof, "Output proof file (192 raw bytes)")->required();
  app->add_option("--public", o->public_path, "Output public inputs (JSON array of decimal strings)")->required();
  app->add_flag("--no-verify", o->no_verify, "Skip verifying the proof before writing it");
  app->add_flag("--trusted-params", o->trusted_params,
                "Skip the subgroup check of the parameter file's points (nearly all of its reading time); for files "
                "whose integrity is known, e.g. by digest. Encoding and on-curve checks remain");
  return {app, [o] { return run_prove(*o); }};
}

}  // namespace cuzk::cli
