// cuzk gen-vanilla porep --sector-size S --out FILE [--format c1|curio|cuzk] [--version V] [--seed N] [--sparse]
//                          [--miner-id N] [--sector-num N]
// cuzk gen-vanilla window-post|winning-post --sector-size S --sectors N [--seed N] [--miner-id N]
//                          [--registered N] --out-dir DIR
// cuzk gen-vanilla snap --sector-size S [--seed N] [--sparse] --out-dir DIR
// cuzk check-vanilla FILE
// cuzk check-vanilla --kind window-post|winning-post --registered N --randomness HEX --miner-id N
//                    [--partition K] FILE...
// Synthetic sectors' PoRep commit inputs, written as filecoin-ffi's C1 output
// (FILECOIN_FORMATS.md §2), Curio's envelope of it, or cuzk's own vanilla JSON
// (src/porep/vanilla_format.md), and their checker (any of the three); and
// synthetic sectors' PoSt vanilla proofs as Curio sends them (cli/post_files.hpp).
#include <memory>
#include <optional>
#include <stdexcept>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "cli/file_io.hpp"
#include "cli/post_files.hpp"
#include "cli/snap_files.hpp"
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
  // PoSt
  unsigned sectors = 1;
  std::string registered, out_dir;
};

filecoin::seal_version_t parse_seal_version(const std::string& v) {
  if (v == "V1" || v == "v1") return filecoin::seal_version_t::v1;
  if (v == "V1_1" || v == "v1_1" || v == "V1.1") return filecoin::seal_version_t::v1_1;
  if (v == "V1_1_Feat_SyntheticPoRep" || v == "synthetic") return filecoin::seal_version_t::v1_1_synthetic;
  if (v == "V1_2_Feat_NonInteractivePoRep" || v == "ni") return filecoin::seal_version_t::v1_2_non_interactive;
  throw std::invalid_argument("--version: expected V1, V1_1 or V1_1_Feat_SyntheticPoRep (synthetic), got '" + v + "'");
}

int run_gen_vanilla(const gen_vanilla_args_t& a) {
  if (a.kind == "snap") {
    if (a.out_dir.empty()) return report_error("gen-vanilla snap needs --out-dir DIR");
    return run_gen_snap_vanilla(
        {.sector_size = a.sector_size, .seed = a.seed, .out_dir = a.out_dir, .repeated_blocks = a.sparse});
  }
  if (a.kind == "window-post" || a.kind == "winning-post") {
    if (a.out_dir.empty()) return report_error("gen-vanilla " + a.kind + " needs --out-dir DIR");
    return run_gen_post_vanilla({.kind = parse_post_kind(a.kind),
                                 .sector_size = a.sector_size,
                                 .sectors = a.sectors,
                                 .seed = a.seed,
                                 .miner_id = a.miner_id,
                                 .registered = a.registered,
                                 .out_dir = a.out_dir});
  }
  if (a.kind != "porep")
    return report_error("gen-vanilla: unknown proof kind '" + a.kind +
                        "' (supported: porep, window-post, winning-post, snap)");
  if (a.out.empty()) return report_error("gen-vanilla porep needs --out FILE");
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

struct check_vanilla_args_t {
  std::vector<std::string> files;
  std::string registered, kind, randomness;
  std::string comm_r_old, comm_r_new, comm_d_new;  // snap
  std::uint64_t miner_id = 0;
  std::optional<unsigned> partition;
};

// PoSt: the files as one partition (--partition K), or in order as
// partitions 0, 1, ... of sectors_per_partition files each.
int run_check_post_vanilla(const check_vanilla_args_t& a) {
  stopwatch sw;
  post_files_request_t r{.kind = parse_post_kind(a.kind),
                         .registered = a.registered,
                         .randomness = a.randomness,
                         .miner_id = a.miner_id};
  const auto id = filecoin::parse_registered_post_proof(a.registered);
  const unsigned per = id ? filecoin::post_proof_by_id(*id).shape().sectors_per_partition : 1;
  const std::size_t chunk = a.partition ? a.files.size() : per;
  unsigned sectors = 0;
  for (std::size_t at = 0, k = a.partition.value_or(0); at < a.files.size(); at += chunk, ++k) {
    r.files.assign(a.files.begin() + at, a.files.begin() + std::min(a.files.size(), at + chunk));
    try {
      const auto in = read_post_files(r, unsigned(k));
      sectors += unsigned(in.real_sectors);
      fmt::print("partition {}: valid {} ({} of {} sectors, {} challenges each)\n", k, in.proof->ffi_name(),
                 in.real_sectors, in.shape.sectors_per_partition, in.shape.challenges_per_sector);
    } catch (const std::invalid_argument& e) {
      return report_error(fmt::format("partition {}: {}", k, e.what()));
    }
  }
  fmt::print("{} sector(s) valid\n", sectors);
  print_timing("read+check", sw.lap());
  return exit_ok;
}

// SnapDeals: the files are partitions 0, 1, ... of one update.
int run_check_snap_vanilla(const check_vanilla_args_t& a) {
  stopwatch sw;
  try {
    const auto in = read_snap_files({.registered = a.registered,
                                     .comm_r_old = a.comm_r_old,
                                     .comm_r_new = a.comm_r_new,
                                     .comm_d_new = a.comm_d_new,
                                     .files = a.files});
    fmt::print("valid {} update: {} partition(s) x {} challenges\n", in.proof->name(), in.shape.partitions,
               in.shape.challenges);
  } catch (const std::invalid_argument& e) {
    return report_error(e.what());
  }
  print_timing("read+check", sw.lap());
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
  app->add_option("kind", a->kind, "Proof kind: porep, window-post, winning-post or snap")->required();
  app->add_option("--sector-size", a->sector_size, "2KiB, 8MiB, 512MiB, 32GiB, 64GiB or a byte count")->required();
  app->add_option("--out", a->out, "Output file (porep)");
  app->add_option("--out-dir", a->out_dir,
                  "Output directory (PoSt: sector-<id>.vproof per challenged sector; snap: partition-<k>.vproof "
                  "per partition) and inputs.json");
  app->add_option("--sectors", a->sectors,
                  "PoSt: the miner's sector count (Window proves all of them, Winning the one the randomness picks)");
  app->add_option("--registered", a->registered, "PoSt: registered proof 0-14 or name (default: Winning V1, Window "
                                                 "V1_1 of the size)");
  app->add_option("--format", a->format,
                  "c1 (filecoin-ffi's SealCommitPhase1Output JSON, default), curio (Curio's envelope of it: what its "
                  "cuzk client sends), bincode (supra_seal's form) or cuzk (our vanilla JSON)");
  app->add_option("--version", a->version, "Registered proof version: V1, V1_1 (default) or V1_1_Feat_SyntheticPoRep");
  app->add_option("--miner-id", a->miner_id, "Miner actor id whose prover_id the replica_id uses (default 1000)");
  app->add_option("--sector-num", a->sector_num, "Sector number (default: the seed)");
  app->add_option("--seed", a->seed, "Seed of every random choice, the PoSt randomness included (default 0)");
  app->add_flag("--sparse", a->sparse,
                "porep: the sparse model even for 2KiB/8MiB (default: full replication up to 8MiB); snap: the "
                "repeated-block model even up to 512MiB (default above: the old replica one 8MiB block repeated, "
                "data in the first block)");
  return {app, [a] { return run_gen_vanilla(*a); }};
}

command_t add_check_vanilla_command(CLI::App& root) {
  auto a = std::make_shared<check_vanilla_args_t>();
  auto* app = root.add_subcommand("check-vanilla",
                                  "Validate a C1 output, Curio envelope or vanilla JSON, or PoSt sector proofs (exit "
                                  "0 valid, 2 naming the first bad element by its path, and the sector or partition)");
  app->add_option("file", a->files, "The file (PoRep), or the sectors' .vproof files (PoSt)")->required();
  app->add_option("--registered", a->registered,
                  "Registered seal proof (0-19 or name, e.g. 8 or StackedDrg32GiBV1_1): needed for a bincode C1, "
                  "which does not name it; with --kind, the registered PoSt proof (0-14 or name) or update proof (snap: 0-4 or name)");
  app->add_option("--kind", a->kind,
                  "window-post or winning-post: the files are PoSt sector proofs (bincode); snap: SnapDeals "
                  "partition proofs, partitions 0, 1, ... in file order");
  app->add_option("--comm-r-old", a->comm_r_old, "snap: the sector's CommR before the update, 64 hex digits (raw)");
  app->add_option("--comm-r-new", a->comm_r_new, "snap: the updated sector's CommR, 64 hex digits (raw)");
  app->add_option("--comm-d-new", a->comm_d_new, "snap: the new data's CommD, 64 hex digits (raw)");
  app->add_option("--randomness", a->randomness, "PoSt: the challenge randomness, 64 hex digits");
  app->add_option("--miner-id", a->miner_id, "PoSt: the miner actor id");
  app->add_option("--partition", a->partition,
                  "PoSt: the files are this partition (default: partitions 0, 1, ... in file order)");
  return {app, [a] {
            try {
              if (a->kind == "snap") return run_check_snap_vanilla(*a);
              if (!a->kind.empty()) return run_check_post_vanilla(*a);
              if (a->files.size() != 1) return report_error("check-vanilla: one file for PoRep (or give --kind)");
              return run_check_vanilla(a->files[0], a->registered);
            } catch (const std::invalid_argument& e) {
              return report_error(e.what());
            }
          }};
}

}  // namespace cuzk::cli
