// cuzk gen-vanilla porep --sector-size S --out FILE [--format c1|curio|cuzk] [--version V] [--seed N] [--sparse]
//                          [--miner-id N] [--sector-num N]
// cuzk check-vanilla FILE
// Synthetic sectors' PoRep commit inputs, written as filecoin-ffi's C1 output
// (FILECOIN_FORMATS.md §2), Curio's envelope of it, or cuzk's own vanilla JSON
// (src/porep/vanilla_format.md), and their checker (any of the three).
#include <memory>
#include <optional>
#include <stdexcept>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "cli/file_io.hpp"
#include "filecoin/c1_bincode.hpp"
#include "filecoin/c1_json.hpp"
#include "filecoin/curio_envelope.hpp"
#include "filecoin/porep_input.hpp"
#include "porep/vanilla_generator.hpp"
#include "porep/vanilla_json.hpp"

namespace cuzk::cli {
namespace {

struct gen_vanilla_args_t {
  std::string kind;
  std::string sector_size;
  std::string out;
  std::string format = "c1";
  std::string version = "V1_1";
  std::uint64_t seed = 0;
  std::uint64_t miner_id = 1000;
  std::optional<std::uint64_t> sector_num;
  bool sparse = false;
};

filecoin::seal_version_t parse_seal_version(const std::string& v) {
  if (v == "V1" || v == "v1") return filecoin::seal_version_t::v1;
  if (v == "V1_1" || v == "v1_1" || v == "V1.1") return filecoin::seal_version_t::v1_1;
  if (v == "V1_1_Feat_SyntheticPoRep" || v == "synthetic") return filecoin::seal_version_t::v1_1_synthetic;
  if (v == "V1_2_Feat_NonInteractivePoRep" || v == "ni") return filecoin::seal_version_t::v1_2_non_interactive;
  throw std::invalid_argument("--version: expected V1, V1_1 or V1_1_Feat_SyntheticPoRep (synthetic), got '" + v + "'");
}

int run_gen_vanilla(const gen_vanilla_args_t& a) {
  if (a.kind != "porep") return report_error("gen-vanilla: unknown proof kind '" + a.kind + "' (supported: porep)");
  if (a.format != "c1" && a.format != "curio" && a.format != "cuzk" && a.format != "bincode")
    return report_error("gen-vanilla: --format must be c1, curio, bincode or cuzk, got '" + a.format + "'");
  const auto& rp = filecoin::seal_proof_for(porep::parse_sector_size(a.sector_size), parse_seal_version(a.version));
  const auto params = rp.sector_params();
  stopwatch sw;
  // A replicated sector's replica_id comes from prover_id(miner_id) and the
  // sector number, so a request naming both checks out against it.
  porep::replica_inputs_t inputs{filecoin::prover_id_from_miner(a.miner_id), a.sector_num.value_or(a.seed)};
  auto proof = a.sparse ? porep::generate_sparse(params, a.seed) : porep::generate_vanilla(params, a.seed, inputs);
  const double gen_ms = sw.lap();
  const std::uint64_t sector_num = proof.replica_id_inputs ? proof.replica_id_inputs->sector_id : a.sector_num.value_or(a.seed);
  const std::string model = proof.model;
  std::string text;
  if (a.format == "cuzk") {
    porep::write_vanilla_file(a.out, proof);
  } else {
    const auto c1 = filecoin::make_c1_output(rp, std::move(proof));
    if (a.format == "bincode") text = filecoin::write_c1_bincode(c1);
    else text = filecoin::write_c1_json(c1);
    if (a.format == "curio")
      text = filecoin::write_curio_envelope(sector_num, rp.sector_bytes,
                                            {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
    write_text_file(a.out, text);
  }
  fmt::print("{}: {} {} ({}), {} sector, {} model, {} partitions x {} challenges, seed {}\n", a.out, a.format,
             rp.name(), rp.id, a.sector_size, model, params.partitions, params.challenges_per_partition, a.seed);
  if (model == "replicated")
    fmt::print("replica_id from miner_id {} and sector number {}\n", a.miner_id, sector_num);
  else
    fmt::print("replica_id is random (sparse model): prove it without a miner id\n");
  print_timing("generate", gen_ms);
  print_timing("write", sw.lap());
  return exit_ok;
}

int run_check_vanilla(const std::string& file, const std::string& registered) {
  stopwatch sw;
  const std::string text = read_text_file(file);
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  const double read_ms = sw.lap();
  filecoin::porep_input_t in;
  try {
    in = filecoin::read_porep_input(bytes, filecoin::parse_registered_seal_proof(registered));
  } catch (const std::invalid_argument& e) {
    return report_error(file + ": " + e.what());
  }
  const auto& p = in.vanilla.params;
  fmt::print("{}: valid {} ({}{} sector, {} partitions x {} challenges)\n", file, to_string(in.format),
             in.c1 ? in.c1->proof.name() + ", " : std::string(), filecoin::sector_size_name(p.sector_bytes),
             p.partitions, p.challenges_per_partition);
  print_timing("read", read_ms);
  print_timing("parse+check", sw.lap());
  return exit_ok;
}

}  // namespace

command_t add_gen_vanilla_command(CLI::App& root) {
  auto a = std::make_shared<gen_vanilla_args_t>();
  auto* app = root.add_subcommand("gen-vanilla", "Generate a synthetic sector's commit inputs: a C1 output, Curio's "
                                                 "envelope of one, or cuzk's vanilla JSON");
  app->add_option("kind", a->kind, "Proof kind: porep")->required();
  app->add_option("--sector-size", a->sector_size, "2KiB, 8MiB, 512MiB, 32GiB, 64GiB or a byte count")->required();
  app->add_option("--out", a->out, "Output file")->required();
  app->add_option("--format", a->format,
                  "c1 (filecoin-ffi's SealCommitPhase1Output JSON, default), curio (Curio's envelope of it: what its "
                  "cuzk client sends), bincode (supra_seal's form) or cuzk (our vanilla JSON)");
  app->add_option("--version", a->version, "Registered proof version: V1, V1_1 (default) or V1_1_Feat_SyntheticPoRep");
  app->add_option("--miner-id", a->miner_id, "Miner actor id whose prover_id the replica_id uses (default 1000)");
  app->add_option("--sector-num", a->sector_num, "Sector number (default: the seed)");
  app->add_option("--seed", a->seed, "Seed of every random choice (default 0)");
  app->add_flag("--sparse", a->sparse, "Sparse model even for 2KiB/8MiB (default: full replication up to 8MiB)");
  return {app, [a] { return run_gen_vanilla(*a); }};
}

command_t add_check_vanilla_command(CLI::App& root) {
  auto file = std::make_shared<std::string>();
  auto registered = std::make_shared<std::string>();
  auto* app = root.add_subcommand("check-vanilla",
                                  "Validate a C1 output, Curio envelope or vanilla JSON (exit 0 valid, 2 naming the "
                                  "first bad element by its JSON path)");
  app->add_option("file", *file, "The file")->required();
  app->add_option("--registered", *registered,
                  "Registered seal proof (number 0-19 or name, e.g. 8 or StackedDrg32GiBV1_1): needed for a bincode "
                  "C1, which does not name it");
  return {app, [file, registered] {
            try {
              return run_check_vanilla(*file, *registered);
            } catch (const std::invalid_argument& e) {
              return report_error(e.what());
            }
          }};
}

}  // namespace cuzk::cli
