// cuzk compat-check [--params-dir DIR] [--prove-up-to SIZE]
// For a storage provider who has Filecoin's official parameter files: is cuzk
// bit-exact with Filecoin? Two checks, each run for the files present:
//   1. every proof of rust-fil-proofs' seal regression records (compiled in,
//      src/filecoin/seal_record_t.hpp) verifies under the official verifying
//      key with the public inputs cuzk derives (filecoin/seal_public_inputs.hpp);
//   2. a C1 of a sector generated here, proven with the official .params
//      (CPU; sizes up to --prove-up-to), verifies under the official key.
// Exit 0 when at least one check ran and all passed, 1 when a proof failed,
// 2 when nothing could be checked (the missing files are named).
#include <filesystem>
#include <map>
#include <memory>

#include "circuits/circuit_model.hpp"
#include "circuits/porep_circuit.hpp"
#include "circuits/porep_synthesizer_t.hpp"
#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "engine/param_store_t.hpp"
#include "filecoin/c1_json.hpp"
#include "filecoin/parameter_manifest_t.hpp"
#include "filecoin/porep_input.hpp"
#include "filecoin/seal_public_inputs.hpp"
#include "filecoin/seal_record_t.hpp"
#include "groth16/groth16.hpp"
#include "porep/vanilla_generator.hpp"

namespace cuzk::cli {
namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t kib = 1024, mib = kib << 10, gib = mib << 10;
constexpr std::uint64_t sizes[] = {2 * kib, 8 * mib, 512 * mib, 32 * gib, 64 * gib};

struct compat_options_t {
  std::string dir;
  std::string prove_up_to = "512MiB";
};

struct tally_t {
  std::size_t ok = 0, failed = 0, skipped = 0;
};

// 1. The records, by sector size: ok / failed partition proofs.
tally_t check_records(const fs::path& dir, std::vector<std::string>& missing) {
  std::map<std::uint64_t, std::unique_ptr<groth16::prepared_vk_t>> keys;
  for (auto bytes : sizes) {
    const auto name = filecoin::porep_parameter_files(bytes).vk;
    if (!fs::exists(dir / name)) {
      missing.push_back(name);
      continue;
    }
    keys[bytes] = std::make_unique<groth16::prepared_vk_t>(groth16::read_verifying_key((dir / name).string()));
  }
  tally_t t;
  std::map<std::string, tally_t> by_kind;
  for (const auto& r : filecoin::upstream_seal_records()) {
    const std::string kind = fmt::format("{} {}{}", filecoin::sector_size_name(r.config.sector_bytes),
                                         to_string(r.config.api_version),
                                         r.config.feature == porep::porep_feature_t::none
                                             ? std::string()
                                             : " " + std::string(to_string(r.config.feature)));
    auto& k = by_kind[kind];
    const auto key = keys.find(r.config.sector_bytes);
    // NonInteractivePoRep records hold a SnarkPack aggregate, not Groth16 proofs.
    if (key == keys.end() || r.config.feature == porep::porep_feature_t::non_interactive) {
      ++k.skipped, ++t.skipped;
      continue;
    }
    const auto comm_r = filecoin::commitment_from_bytes(r.comm_r, "comm_r");
    const auto comm_d = filecoin::commitment_from_bytes(r.comm_d, "comm_d");
    const auto replica_id = filecoin::seal_replica_id(r.config, r.prover_id, r.sector_id, r.ticket, comm_d);
    const auto inputs = filecoin::seal_public_inputs_all(r.config, comm_r, comm_d, replica_id, r.seed);
    for (unsigned p = 0; p < r.config.partitions; ++p) {
      groth16::proof_t proof;
      const bool decoded =
          r.proof.size() >= (p + 1) * groth16::proof_size &&
          groth16::decode_proof({r.proof.data() + p * groth16::proof_size, groth16::proof_size}, proof).ok();
      const bool ok = decoded && key->second->verify(proof, inputs[p]);
      if (!ok) fmt::print(stderr, "FAIL: {} partition {}: the proof does not verify\n", r.origin, p);
      ++(ok ? k.ok : k.failed);
      ++(ok ? t.ok : t.failed);
    }
  }
  for (const auto& [kind, k] : by_kind)
    fmt::print("  records {:<28} {:>4} partitions verified, {} failed, {} records skipped\n", kind, k.ok, k.failed,
               k.skipped);
  return t;
}

// 2. A generated C1 per present size, proven with the official parameters.
tally_t prove_generated(const fs::path& dir, std::uint64_t up_to, std::vector<std::string>& missing) {
  tally_t t;
  for (auto bytes : sizes) {
    const auto files = filecoin::porep_parameter_files(bytes);
    if (!fs::exists(dir / files.params) || !fs::exists(dir / files.vk)) {
      missing.push_back(files.params);
      continue;
    }
    if (bytes > up_to) {
      fmt::print("  prove   {:<28} skipped (above --prove-up-to)\n", filecoin::sector_size_name(bytes));
      ++t.skipped;
      continue;
    }
    stopwatch sw;
    const auto& rp = filecoin::seal_proof_for(bytes, filecoin::seal_version_t::v1_1);
    const auto c1 = filecoin::write_c1_json(filecoin::make_c1_output(rp, porep::generate_vanilla(rp.sector_params(), 1)));
    const auto in = filecoin::read_porep_input({reinterpret_cast<const std::uint8_t*>(c1.data()), c1.size()});
    const auto params = engine::read_parameter_file((dir / files.params).string());
    const groth16::prepared_vk_t vk(groth16::read_verifying_key((dir / files.vk).string()));
    const auto synthesizer = circuits::porep_synthesizer_t::for_sector(in.vanilla.params);
    const auto config = filecoin::porep_config_t::of(rp);
    groth16::os_rng rng;
    for (unsigned k = 0; k < in.vanilla.partitions.size(); ++k) {
      circuits::circuit_model<circuits::porep_circuit> circuit("porep", synthesizer->circuit(in.vanilla, k));
      auto pending = groth16::prove_start(params, synthesizer->synthesize(circuit.circuit()));
      const auto proof = groth16::finalize(params, std::move(pending), ff::fr_t::random(rng), ff::fr_t::random(rng));
      // The inputs from the C1's commitments alone, not from our circuit.
      const auto inputs = filecoin::seal_public_inputs(config, in.vanilla.comm_r, in.vanilla.comm_d,
                                                       in.vanilla.replica_id, in.vanilla.seed, k);
      const bool ok = vk.verify(proof, inputs);
      if (!ok) fmt::print(stderr, "FAIL: {} partition {}: our proof does not verify under the official key\n",
                          rp.name(), k);
      ++(ok ? t.ok : t.failed);
    }
    fmt::print("  prove   {:<28} {} partitions proven with {}, {} ({:.1f} s)\n", rp.name(),
               in.vanilla.partitions.size(), files.params, t.failed ? "FAILED" : "verified", sw.lap() / 1000.0);
  }
  return t;
}

int run_compat_check(const compat_options_t& o) {
  const fs::path dir = o.dir.empty() ? fs::path(filecoin::default_parameter_cache()) : fs::path(o.dir);
  if (!fs::is_directory(dir))
    return report_error(dir.string() + ": not a directory (set --params-dir or FIL_PROOFS_PARAMETER_CACHE to where "
                                       "Filecoin's v28 parameter files are)");
  std::uint64_t up_to = 0;
  try {
    up_to = porep::parse_sector_size(o.prove_up_to);
  } catch (const std::invalid_argument& e) {
    return report_error(std::string("--prove-up-to: ") + e.what());
  }
  fmt::print("compat-check: official parameter files in {}\n", dir.string());
  std::vector<std::string> missing_vk, missing_params;
  const auto rec = check_records(dir, missing_vk);
  const auto gen = prove_generated(dir, up_to, missing_params);
  for (const auto& m : missing_vk) fmt::print("  missing {}\n", (dir / m).string());
  for (const auto& m : missing_params) fmt::print("  missing {}\n", (dir / m).string());
  const std::size_t ran = rec.ok + rec.failed + gen.ok + gen.failed;
  fmt::print("compat-check: {} record partitions verified, {} failed; {} generated partitions verified, {} failed\n",
             rec.ok, rec.failed, gen.ok, gen.failed);
  if (rec.failed || gen.failed) return exit_invalid;
  if (ran == 0)
    return report_error("nothing could be checked: no official PoRep verifying key or parameter file in " +
                        dir.string() + " (the files above; `cuzk params check` lists what is there)");
  return exit_ok;
}

}  // namespace

command_t add_compat_check_command(CLI::App& root) {
  auto o = std::make_shared<compat_options_t>();
  auto* app = root.add_subcommand(
      "compat-check", "With Filecoin's official parameter files: verify upstream's seal regression records with "
                      "our public inputs, and prove a generated C1 with the official parameters");
  app->add_option("--params-dir", o->dir,
                  "Directory of the v28 files (default $FIL_PROOFS_PARAMETER_CACHE, else "
                  "/var/tmp/filecoin-proof-parameters)");
  app->add_option("--prove-up-to", o->prove_up_to,
                  "Largest sector size to prove on the CPU (default 512MiB; 32GiB takes ~10 partitions x minutes)");
  return {app, [o] { return run_compat_check(*o); }};
}

}  // namespace cuzk::cli
