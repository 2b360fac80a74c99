// cuzk bench --proofs N --concurrency J --kind KIND [--size N] [--partitions P]
//            [--daemon ADDR] [--sequential | --compare] [--timeline-out FILE] ...
// cuzk bench --kind porep --vanilla FILE [--params FILE] ...: PoRep C2 jobs of
//            one vanilla proof (all its partitions per job)
// cuzk bench --kind window-post|winning-post --vanilla-dir DIR [--params FILE] ...:
//            the PoSt request of one partition of DIR (`cuzk gen-vanilla`), per job
// cuzk bench --kind snap --vanilla-dir DIR [--params FILE] ...: the SnapDeals
//            update of DIR (`cuzk gen-vanilla snap`, all its partitions), per job
// cuzk bench --kind window-post|winning-post --vanilla-dir DIR --load-vanilla FILE ...:
//            those PoSt proofs idle, then under a stream of PoRep jobs of FILE
#include <unistd.h>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "circuits/circuit_registry.hpp"
#include "cli/command.hpp"
#include "cli/file_io.hpp"
#include "cli/post_files.hpp"
#include "cli/snap_files.hpp"
#include "cli/service_support.hpp"
#include "engine/engine.hpp"
#include "engine/gpu_backend_t.hpp"
#include "engine/process_memory_t.hpp"
#include "groth16/gpu_setup.hpp"
#include "groth16/groth16.hpp"
#include "filecoin/porep_input.hpp"
#include "filecoin/registered_seal_proof_t.hpp"
#include "porep/domain.hpp"
#include "porep/vanilla_format_error.hpp"
#include "service/bench_runner.hpp"

namespace cuzk::cli {
namespace {

struct bench_cli_options {
  service::bench_options_t bench;
  std::string daemon, kind = "hash-chain", vanilla, vanilla_dir, timeline_out, params, budget, backend = "auto",
      residency = "auto", registered, randomness, load_vanilla, load_params;
  bool compare = false, quiet = false, gpu_in_turn = false, pin_witness = true, keep_host_params = false;
  bool trusted_params = false;  // --params read without the per-point subgroup checks
  std::string msm_scratch = "auto";
  std::string compact_witness = "auto";
  uint64_t msm_threads = 0;
  uint64_t h_window_bits = 0;
  uint32_t synthesis_threads = 0, workers = 2, devices = 1, load_concurrency = 2;
  int64_t partition = -1;  // PoSt: -1 = the first partition of DIR
  uint64_t miner_id = 0, sector_number = 0;
  double load_warmup_s = 0;
  service::bench_options_t load;  // --load-vanilla: the PoRep stream
};

// A parameter set the in-process engine needs: the circuit (as
// circuits::make_circuit names it) under the engine's id, from a file or a
// random setup made now.
struct param_set_t {
  std::string id, circuit;
  uint64_t size = 0;
  std::string file;
};

// A fresh random setup (development only: whoever runs it knows the toxic waste).
std::shared_ptr<groth16::parameters_t> bench_parameters(const param_set_t& set, const std::string& backend) {
  auto circuit = circuits::make_circuit(set.circuit, set.size);
  fmt::print(stderr, "generating parameters for {} (random setup, for benchmarking only)...\n", circuit->description());
  groth16::os_rng rng;
  const auto tw = groth16::toxic_waste_t::random(rng);
  const auto t0 = std::chrono::steady_clock::now();
  // The setup's fixed-base multiplications go to the GPU when proofs will
  // (the same parameters either way; 4-5x faster on an H200, BENCHMARKS.md).
  const bool on_gpu = backend != "cpu" && engine::gpu_available();
  std::vector<std::pair<std::string, double>> steps;
  auto params = std::make_shared<groth16::parameters_t>(
      on_gpu ? groth16::generate_parameters_gpu(*circuit, tw, &steps) : groth16::generate_parameters(*circuit, tw, {}, &steps));
  std::string step_list;
  for (const auto& [name, ms] : steps) step_list += fmt::format(" {} {:.1f}", name, ms / 1e3);
  fmt::print(stderr, "parameters {} ready in {:.1f} s ({} setup, {:.2f} GiB; s:{})\n", set.id,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), on_gpu ? "GPU" : "CPU",
             double(params->bytes()) / double(uint64_t(1) << 30), step_list);
  return params;
}

// What a run's jobs prove with: the engine's id for its request (or built-in circuit).
param_set_t param_set_of(const service::bench_options_t& b, const std::string& file) {
  engine::job_request_t probe;
  probe.proof_kind = engine::proof_kind_t::circuit;
  probe.circuit = b.circuit;
  probe.circuit_size = b.size;
  return {engine::engine_t::circuit_id_for(b.request ? *b.request : probe), b.circuit, b.size, file};
}

// A parameter cache directory of symbolic links <id>.params -> the --params
// files, removed at exit: the engine loads them as a daemon loads its cache.
struct bench_param_cache_t {
  std::filesystem::path dir;
  ~bench_param_cache_t() {
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }
};

std::unique_ptr<engine::engine_t> in_process_engine(const bench_cli_options& o, const std::vector<param_set_t>& sets) {
  engine::engine_config_t cfg;
  static bench_param_cache_t cache;
  for (const auto& set : sets) {
    if (set.file.empty()) continue;
    if (cache.dir.empty()) {
      cache.dir = std::filesystem::temp_directory_path() / fmt::format("cuzk-bench-params-{}", ::getpid());
      std::filesystem::remove_all(cache.dir);
      std::filesystem::create_directories(cache.dir);
    }
    std::filesystem::create_symlink(std::filesystem::absolute(set.file), cache.dir / (set.id + ".params"));
  }
  if (!cache.dir.empty()) cfg.param_cache = cache.dir.string();
  cfg.param_subgroup_checks = !o.trusted_params;
  if (!o.budget.empty() && o.budget != "auto") cfg.total_budget = service::parse_size(o.budget);
  cfg.synthesis_threads = o.synthesis_threads;
  cfg.gpu_workers_per_device = o.workers;
  cfg.release_host_params = !o.keep_host_params;
  cfg.compact_witness = engine::engine_config_t::compact_from(o.compact_witness);
  engine::engine_hooks_t hooks;
  if (o.backend == "cuda" && !engine::gpu_available())
    throw engine::invalid_request("--backend cuda: no GPU of compute capability >= 9.0 (or built without CUDA)");
  // CPU fallback (the engine's default) takes partitions that fail on every GPU.
  groth16::gpu_prover_options_t gpu_options;
  gpu_options.overlap = !o.gpu_in_turn;
  gpu_options.pin_witness = o.pin_witness;
  gpu_options.msm_scratch = groth16::parse_msm_scratch(o.msm_scratch);
  gpu_options.msm_threads = size_t(o.msm_threads);
  gpu_options.h_window_bits = uint32_t(o.h_window_bits);
  gpu_options.residency = gpu::residency_policy_t::parse(o.residency);
  gpu_options.proofs_in_flight = o.workers;
  hooks.backend =
      o.backend == "cpu" ? engine::make_cpu_backend(o.devices) : engine::make_backend(o.backend, gpu_options);
  auto e = std::make_unique<engine::engine_t>(cfg, hooks);
  // A --params file is loaded now, as the daemon loads its cache (the queries
  // every GPU holds read from the file onto it, unless --keep-host-params), so
  // its load is not in the proofs' times. A random setup is registered: the
  // GPU backend frees the host copy of what it holds, and a partition that
  // falls back to the CPU fails, saying so (it cannot be read again).
  for (const auto& set : sets) {
    if (!set.file.empty()) {
      const auto r = e->preload(set.id);
      const auto st = e->status();
      for (const auto& p : st.loaded_params) {
        if (p.circuit_id != set.id) continue;
        fmt::print(stderr, "parameters {} loaded from {} in {:.1f} s: {:.2f} GiB charged to the memory budget, "
                   "{:.2f} GiB of the set held by the GPUs only\n",
                   set.id, set.file, double(r.load_time_ms) / 1e3, double(p.bytes) / double(uint64_t(1) << 30),
                   double(p.host_released) / double(uint64_t(1) << 30));
      }
      continue;
    }
    auto params = bench_parameters(set, o.backend);
    e->register_parameters(set.id, std::move(params), []() -> groth16::parameters_t {
      throw std::runtime_error("a random bench setup cannot be loaded again for the CPU fallback");
    });
  }
  return e;
}

// --kind porep (and --load-vanilla): the file's bytes (a Curio envelope, a C1
// output or our vanilla JSON) go to every job as they are (the engine parses
// and checks them at submit); size and partitions come from the proof.
void read_porep_file(service::bench_options_t& b, const std::string& path, const std::string& registered_text,
                     uint64_t miner_id, uint64_t sector_number) {
  const std::string text = read_text_file(path);
  const auto registered = filecoin::parse_registered_seal_proof(registered_text);
  porep::vanilla_proof_t v;
  try {
    v = filecoin::read_porep_input({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}, registered)
            .vanilla;
  } catch (const porep::vanilla_format_error& e) {
    throw std::invalid_argument(path + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
  auto r = std::make_shared<engine::job_request_t>();
  r->proof_kind = engine::proof_kind_t::porep_seal_commit;
  r->sector_size = v.params.sector_bytes;
  r->vanilla_proof.assign(text.begin(), text.end());
  r->registered_proof = registered.value_or(0);  // 0 = not sent
  r->miner_id = miner_id;
  r->sector_number = sector_number;
  b.circuit = "porep";
  b.size = v.params.sector_bytes;
  b.partitions = static_cast<uint32_t>(v.partitions.size());
  b.request = std::move(r);
}

// DIR/inputs.json of `cuzk gen-vanilla KIND --out-dir DIR`; std::invalid_argument
// naming the file when it is not JSON or holds another kind's proofs.
nlohmann::json read_inputs_json(const std::string& path, const std::string& kind) {
  nlohmann::json inputs;
  try {
    inputs = nlohmann::json::parse(read_text_file(path));
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
  if (inputs.value("kind", kind) != kind)
    throw std::invalid_argument(fmt::format("{}: holds {} proofs, not {}", path, inputs.value("kind", ""), kind));
  return inputs;
}

// --kind window-post|winning-post --vanilla-dir DIR: the request Curio sends
// for one partition of DIR's sectors (DIR/inputs.json from `cuzk gen-vanilla`;
// registered proof, randomness, miner id and partition from it unless given),
// checked here as the engine will check it, so a bad file is named at once.
void read_post_dir(bench_cli_options& o) {
  const auto kind = parse_post_kind(o.kind);
  const std::filesystem::path dir(o.vanilla_dir);
  const std::string inputs_path = (dir / "inputs.json").string();
  const nlohmann::json inputs = read_inputs_json(inputs_path, o.kind);
  const auto partition = static_cast<unsigned>(o.partition >= 0 ? o.partition : 0);
  post_files_request_t files{
      .kind = kind,
      .registered = o.registered.empty() ? std::to_string(inputs.at("registered_proof").get<uint64_t>()) : o.registered,
      .randomness = o.randomness.empty() ? inputs.at("randomness").get<std::string>() : o.randomness,
      .miner_id = o.miner_id != 0 ? o.miner_id : inputs.at("miner_id").get<uint64_t>(),
      .files = {}};
  for (const auto& sector : inputs.at("sectors"))
    if (sector.at("partition").get<unsigned>() == partition)
      files.files.push_back((dir / sector.at("file").get<std::string>()).string());
  if (files.files.empty())
    throw std::invalid_argument(fmt::format("{}: no sector in partition {} ({} partition(s))", inputs_path, partition,
                                            inputs.value("partitions", 0)));
  const auto in = read_post_files(files, partition);
  auto r = std::make_shared<engine::job_request_t>();
  r->proof_kind = kind == porep::post_kind_t::winning ? engine::proof_kind_t::winning_post
                                                      : engine::proof_kind_t::window_post_partition;
  r->registered_proof = in.proof->id;
  r->sector_size = in.proof->sector_bytes;
  for (const auto& f : files.files) {
    const std::string blob = read_text_file(f);
    r->vanilla_proofs.emplace_back(blob.begin(), blob.end());
  }
  r->randomness.assign(in.randomness.begin(), in.randomness.end());
  r->miner_id = files.miner_id;
  r->partition_index = partition;
  fmt::print(stderr, "{}: {} {} ({}), partition {}: {} sector(s)\n", o.vanilla_dir, o.kind, in.proof->ffi_name(),
             in.proof->id, partition, files.files.size());
  o.bench.circuit = o.kind;
  o.bench.size = in.proof->sector_bytes;
  o.bench.partitions = 1;
  o.bench.request = std::move(r);
}

// --kind snap --vanilla-dir DIR: the request Curio sends for DIR's update
// (DIR/inputs.json from `cuzk gen-vanilla snap`), checked here as the engine
// will check it.
void read_snap_dir(bench_cli_options& o) {
  const std::filesystem::path dir(o.vanilla_dir);
  const std::string inputs_path = (dir / "inputs.json").string();
  const nlohmann::json inputs = read_inputs_json(inputs_path, o.kind);
  snap_files_request_t files{
      .registered = o.registered.empty() ? std::to_string(inputs.at("registered_proof").get<uint64_t>()) : o.registered,
      .comm_r_old = inputs.at("comm_r_old").get<std::string>(),
      .comm_r_new = inputs.at("comm_r_new").get<std::string>(),
      .comm_d_new = inputs.at("comm_d_new").get<std::string>(),
      .files = {}};
  for (const auto& f : inputs.at("files")) files.files.push_back((dir / f.get<std::string>()).string());
  const auto in = read_snap_files(files);
  auto r = std::make_shared<engine::job_request_t>();
  r->proof_kind = engine::proof_kind_t::snap_deals_update;
  r->registered_proof = in.proof->id;
  r->sector_size = in.proof->sector_bytes;
  for (const auto& f : files.files) {
    const std::string blob = read_text_file(f);
    r->vanilla_proofs.emplace_back(blob.begin(), blob.end());
  }
  const auto& pub = in.partitions.at(0).pub;
  for (auto [field, x] : {std::pair{&r->comm_r_old, pub.comm_r_old}, std::pair{&r->comm_r_new, pub.comm_r_new},
                          std::pair{&r->comm_d_new, pub.comm_d_new}}) {
    const auto b = porep::to_le_bytes(x);
    field->assign(b.begin(), b.end());
  }
  fmt::print(stderr, "{}: snap {} ({}): {} partition(s)\n", o.vanilla_dir, in.proof->name(), in.proof->id,
             in.shape.partitions);
  o.bench.circuit = "snap";
  o.bench.size = in.proof->sector_bytes;
  o.bench.partitions = in.shape.partitions;
  o.bench.request = std::move(r);
}

bool is_post_kind(const std::string& kind) { return kind == "window-post" || kind == "winning-post"; }

// Fills o.bench (and o.load) from the command line; "" or the usage error.
std::string resolve_jobs(bench_cli_options& o) {
  const auto names = circuits::circuit_names();
  if (!o.vanilla.empty() && o.kind != "porep") return "--vanilla is for --kind porep (PoSt: --vanilla-dir DIR)";
  if (!o.vanilla_dir.empty() && !is_post_kind(o.kind) && o.kind != "snap")
    return "--vanilla-dir is for --kind window-post|winning-post|snap";
  if (!o.load_vanilla.empty() && !is_post_kind(o.kind)) return "--load-vanilla is for --kind window-post|winning-post";
  if (!o.load_vanilla.empty() && (o.compare || o.bench.sequential))
    return "--load-vanilla runs its PoSt proofs one at a time already (no --compare or --sequential)";
  if (o.kind == "porep") {
    if (o.vanilla.empty()) return "--kind porep needs --vanilla FILE (`cuzk gen-vanilla porep`)";
    read_porep_file(o.bench, o.vanilla, o.registered, o.miner_id, o.sector_number);
  } else if (o.kind == "snap") {
    if (o.vanilla_dir.empty()) return "--kind snap needs --vanilla-dir DIR (`cuzk gen-vanilla snap`)";
    read_snap_dir(o);
  } else if (is_post_kind(o.kind)) {
    if (o.vanilla_dir.empty())
      return "--kind " + o.kind + " needs --vanilla-dir DIR (`cuzk gen-vanilla " + o.kind + "`)";
    read_post_dir(o);
    if (!o.load_vanilla.empty()) {
      read_porep_file(o.load, o.load_vanilla, "", 0, 0);
      o.load.concurrency = o.load_concurrency;
      o.load.timeline = o.bench.timeline || !o.timeline_out.empty();
    }
  } else if (std::find(names.begin(), names.end(), o.kind) == names.end()) {
    return fmt::format("--kind {}: the bench proves built-in circuits ({}), porep with --vanilla FILE, or "
                       "window-post / winning-post / snap with --vanilla-dir DIR",
                       o.kind, fmt::join(names, ", "));
  } else {
    o.bench.circuit = o.kind;
  }
  o.bench.timeline = o.bench.timeline || !o.timeline_out.empty();
  return "";
}

void write_timeline(const bench_cli_options& o, const std::vector<service::bench_report_t>& reports) {
  if (o.timeline_out.empty()) return;
  write_text_file(o.timeline_out, service::bench_timeline_json(reports).dump(1) + "\n");
  fmt::print("wrote {} (render with `cuzk plot --timeline {} --out FILE.svg`)\n", o.timeline_out, o.timeline_out);
}

int failures_of(const service::bench_report_t& r) { return static_cast<int>(r.proofs.size() - r.completed()); }

int run_under_load(const bench_cli_options& o, service::proving_target_t& target) {
  service::bench_load_options_t load;
  load.stream = o.load;
  load.warmup = std::chrono::milliseconds(static_cast<int64_t>(o.load_warmup_s * 1000));
  const auto r = service::run_bench_under_load(target, o.bench, load, o.quiet ? nullptr : &std::cerr);
  fmt::print("{}", service::format_load_report(r));
  write_timeline(o, {r.idle, r.loaded, r.stream});
  return failures_of(r.idle) + failures_of(r.loaded) + failures_of(r.stream);
}

int run_plain(const bench_cli_options& o, service::proving_target_t& target, bool in_process) {
  std::vector<bool> modes = o.compare ? std::vector<bool>{false, true} : std::vector<bool>{o.bench.sequential};
  std::vector<service::bench_report_t> reports;
  int failures = 0;
  for (bool sequential : modes) {
    auto opts = o.bench;
    opts.sequential = sequential;
    if (in_process) engine::reset_peak_rss();
    reports.push_back(service::run_bench(target, opts, o.quiet ? nullptr : &std::cerr));
    fmt::print("{}\n", service::format_bench_report(reports.back()));
    failures += failures_of(reports.back());
  }
  if (o.compare && reports[0].completed() > 0 && reports[1].completed() > 0) {
    fmt::print("pipelined {:.3f} s/proof vs sequential {:.3f} s/proof: {:.2f}x\n", reports[0].seconds_per_proof(),
               reports[1].seconds_per_proof(), reports[1].seconds_per_proof() / reports[0].seconds_per_proof());
  }
  if (is_post_kind(o.kind)) fmt::print("{} {}\n", o.kind, service::format_latency_line(reports.back()));
  write_timeline(o, reports);
  return failures;
}

int run_bench_command(bench_cli_options o) {
  if (const auto usage = resolve_jobs(o); !usage.empty()) return report_error(usage);
  std::unique_ptr<engine::engine_t> engine;
  std::unique_ptr<service::proving_target_t> target;
  if (o.daemon.empty()) {
    std::vector<param_set_t> sets = {param_set_of(o.bench, o.params)};
    if (o.load.request) sets.push_back(param_set_of(o.load, o.load_params));
    engine = in_process_engine(o, sets);
    target = service::make_engine_target(*engine);
  } else {
    target = service::make_daemon_target(o.daemon);
  }
  const int failures = o.load.request ? run_under_load(o, *target) : run_plain(o, *target, engine != nullptr);
  if (engine) engine->stop();
  return failures == 0 ? exit_ok : exit_internal;
}

}  // namespace

command_t add_bench_command(CLI::App& root) {
  auto o = std::make_shared<bench_cli_options>();
  auto* app = root.add_subcommand("bench", "Throughput of the proving pipeline: N proofs, J in flight, through a daemon or "
                                           "an engine in this process; PoSt latency idle and under PoRep load");
  app->add_option("--proofs,-n", o->bench.proofs, "Number of proofs (with --load-vanilla: PoSt proofs per phase)")
      ->check(CLI::Range(1u, 100000u));
  app->add_option("--concurrency,-j", o->bench.concurrency, "Jobs in flight at once")->check(CLI::Range(1u, 4096u));
  app->add_option("--kind,-k", o->kind,
                  "Built-in circuit to prove (see `cuzk circuits`), porep with --vanilla, or window-post / "
                  "winning-post / snap with --vanilla-dir");
  app->add_option("--vanilla", o->vanilla, "--kind porep: the vanilla proof (JSON, `cuzk gen-vanilla`) every job proves")
      ->check(CLI::ExistingFile);
  app->add_option("--vanilla-dir", o->vanilla_dir,
                  "--kind window-post|winning-post: a directory from `cuzk gen-vanilla window-post|winning-post` "
                  "(inputs.json and sector-<id>.vproof); every job is the request Curio sends for one partition "
                  "of it (registered proof, randomness, miner id from inputs.json unless given); --kind snap: "
                  "one from `cuzk gen-vanilla snap`, every job the whole update")
      ->check(CLI::ExistingDirectory);
  app->add_option("--partition", o->partition, "PoSt: the partition of --vanilla-dir each job proves (default 0)")
      ->check(CLI::Range(int64_t(0), int64_t(1) << 20));
  app->add_option("--randomness", o->randomness, "PoSt: the randomness sent (64 hex digits; default inputs.json's)");
  app->add_option("--miner-id", o->miner_id,
                  "Sent with each request as Curio does. porep: with --sector-num (or the envelope's SectorNum) the "
                  "C1's replica_id is checked against it; PoSt: default inputs.json's");
  app->add_option("--sector-num", o->sector_number, "--kind porep: the sector number sent with each request");
  app->add_option("--registered", o->registered,
                  "The registered proof sent with each request, as Curio sets it: porep a seal proof (0-19 or a "
                  "name); PoSt a PoSt proof (0-14 or a name; default inputs.json's)");
  app->add_option("--load-vanilla", o->load_vanilla,
                  "PoSt under load: measure the --proofs PoSt proofs idle (one at a time), then start a stream of "
                  "PoRep C2 jobs of this file (as --kind porep --vanilla takes it), wait until it is warm, and "
                  "measure them again one at a time, each submitted when partitions are in flight; prints "
                  "'<kind> idle: p50 ...' and '<kind> under load: p50 ...' and the PoRep throughput")
      ->check(CLI::ExistingFile);
  app->add_option("--load-concurrency", o->load_concurrency, "--load-vanilla: PoRep jobs kept in flight (default 2)")
      ->check(CLI::Range(1u, 64u));
  app->add_option("--load-warmup", o->load_warmup_s,
                  "--load-vanilla: seconds of PoRep load before the loaded PoSt proofs start (default 0 = until the "
                  "first PoRep job has returned, so every stage of the pipeline has seen its partitions)")
      ->check(CLI::Range(0.0, 86400.0));
  app->add_option("--size", o->bench.size, "Circuit size (0 = default)")->check(CLI::NonNegativeNumber);
  app->add_option("--partitions", o->bench.partitions, "Partitions per job")->check(CLI::Range(1u, 1024u));
  app->add_option("--daemon", o->daemon, "Send the proofs to this daemon (unix:///path or IP:port); default: in-process");
  auto* seq = app->add_flag("--sequential", o->bench.sequential, "One job at a time (no overlap between jobs)");
  app->add_flag("--compare", o->compare, "Run pipelined, then sequential, and compare")->excludes(seq);
  app->add_flag("--timeline", o->bench.timeline, "Ask for per-partition stage times (per-stage breakdown)");
  app->add_option("--timeline-out", o->timeline_out, "Write the timeline JSON here (for `cuzk plot`)");
  app->add_flag("--quiet,-q", o->quiet, "No progress lines on stderr");
  auto* in_process = app->add_option_group("in-process engine", "Used only without --daemon");
  // A CLI11 validator from a check that throws std::invalid_argument naming the value.
  auto checked_by = [](void (*check)(uint64_t)) {
    return [check](const std::string& s) {
      try {
        check(std::stoull(s));
        return std::string();
      } catch (const std::exception& e) {
        return std::string(e.what());
      }
    };
  };
  in_process->add_option("--params", o->params,
                         "Parameter file from `cuzk setup` for the jobs' circuit (default: a random setup now)")
      ->check(CLI::ExistingFile);
  in_process->add_option("--load-params", o->load_params,
                         "--load-vanilla: parameter file of the PoRep circuit (default: a random setup now)")
      ->check(CLI::ExistingFile);
  in_process->add_option("--budget", o->budget, "Memory budget: \"auto\" or a size such as 8GiB");
  in_process->add_option("--synthesis-threads", o->synthesis_threads, "Synthesis workers (0 = all CPUs)");
  in_process->add_option("--workers", o->workers, "Prove workers per device")->check(CLI::Range(1u, 64u));
  in_process->add_option("--devices", o->devices, "CPU backend devices (worker groups)")->check(CLI::Range(1u, 64u));
  in_process->add_option("--backend", o->backend, "Prove backend: auto (cuda when a GPU exists), cpu or cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  in_process->add_option("--residency", o->residency,
                         "Where the CUDA backend keeps the parameters: auto (device where they fit, else pinned host "
                         "memory), device, pinned or pageable")
      ->check(CLI::IsMember(std::vector<std::string>(gpu::residency_modes.begin(), gpu::residency_modes.end())));
  in_process->add_flag("--gpu-in-turn", o->gpu_in_turn,
                       "CUDA backend: run each prove_start's steps one after another, so the timeline's stage times "
                       "are each step's own (a per-step breakdown; slower)");
  in_process->add_option("--compact-witness", o->compact_witness,
                         "Witnesses of compiled circuits stay compact until prove_start (a, b, c formed by the "
                         "prover): auto (the backend's choice: on for both), on, or off (a, b, c formed on the host at synthesis, "
                         "to compare) ([synthesis] compact_witness)")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  in_process->add_flag("--pin-witness,!--no-pin-witness", o->pin_witness,
                       "CUDA backend: page-lock each witness's buffers after synthesis so prove_start uploads them by "
                       "DMA, and keep them for later partitions ([gpus] pin_witness; default on)");
  in_process->add_option("--msm-scratch", o->msm_scratch,
                         "CUDA backend: MSM scratch kept per query, the MSMs of a proof at once (per-query), or "
                         "released after each MSM, one at a time (one-at-a-time: room for every query on the "
                         "device); auto picks one-at-a-time when it streams fewer bytes per proof or when only it "
                         "fits the device ([gpus] msm_scratch)")
      ->check(CLI::IsMember({"auto", "per-query", "one-at-a-time"}));
  in_process->add_option("--msm-threads", o->msm_threads,
                         "CUDA backend: accumulation threads each MSM aims for, a power of two from 4096 to 4194304 "
                         "(0: 131072); more threads make shorter kernel blocks, which a WinningPoSt under load "
                         "waits less for ([gpus] msm_threads)")
      ->check(checked_by(groth16::check_msm_threads));
  in_process->add_option("--h-window-bits", o->h_window_bits,
                         "CUDA backend: window width of the H MSM, 2 to 22 bits (0: automatic, 22 at 2^26 points and "
                         "above where the device has room for the buckets, else the cost model's, 20 at 2^27); 22 "
                         "sums 12 windows instead of 13 for ~3.3 GiB more device scratch per proof ([gpus] "
                         "h_window_bits)")
      ->check(checked_by(groth16::check_h_window_bits));
  in_process->add_flag("--trusted-params", o->trusted_params,
                       "Read --params without the subgroup check of every point (~25 us per G1 point per core: a "
                       "4 GB file takes minutes on 16 cores); for files whose integrity is known");
  in_process->add_flag("--keep-host-params", o->keep_host_params,
                       "CUDA backend: keep the host copy of the parameters the GPUs hold ([srs] release_host_copy = "
                       "false), to compare peak RSS");
  return {app, [o] {
            return run_rpc_guarded([&] {
              try {
                return run_bench_command(*o);
              } catch (const engine::invalid_request& e) {
                return report_error(e.what());
              } catch (const engine::never_fits& e) {
                return report_error(e.what());
              } catch (const nlohmann::json::exception& e) {  // a field of inputs.json of the wrong type
                return report_error(o->vanilla_dir + "/inputs.json: " + e.what());
              } catch (const std::invalid_argument& e) {
                return report_error(e.what());
              }
            });
          }};
}

}  // namespace cuzk::cli
