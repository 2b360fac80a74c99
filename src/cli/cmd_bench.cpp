// cuzk bench --proofs N --concurrency J --kind KIND [--size N] [--partitions P]
//            [--daemon ADDR] [--sequential | --compare] [--timeline-out FILE] ...
// cuzk bench --kind porep --vanilla FILE [--params FILE] ...: PoRep C2 jobs of
//            one vanilla proof (all its partitions per job)
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "circuits/circuit_registry.hpp"
#include "cli/command.hpp"
#include "cli/file_io.hpp"
#include "cli/service_support.hpp"
#include "engine/engine.hpp"
#include "engine/gpu_backend_t.hpp"
#include "engine/process_memory_t.hpp"
#include "groth16/gpu_setup.hpp"
#include "groth16/groth16.hpp"
#include "filecoin/porep_input.hpp"
#include "filecoin/registered_seal_proof_t.hpp"
#include "porep/vanilla_format_error.hpp"
#include "service/bench_runner.hpp"

namespace cuzk::cli {
namespace {

struct bench_cli_options {
  service::bench_options_t bench;
  std::string daemon, kind = "hash-chain", vanilla, timeline_out, params, budget, backend = "auto",
      residency = "auto", registered;
  bool compare = false, quiet = false, gpu_in_turn = false, pin_witness = true, keep_host_params = false;
  uint32_t synthesis_threads = 0, workers = 2, devices = 1;
};

// Parameters for the in-process engine: from --params, or a fresh random
// setup (development only: whoever runs it knows the toxic waste).
std::shared_ptr<groth16::parameters_t> bench_parameters(const bench_cli_options& o) {
  if (!o.params.empty()) return std::make_shared<groth16::parameters_t>(groth16::read_parameters(o.params));
  auto circuit = circuits::make_circuit(o.bench.circuit, o.bench.size);
  fmt::print(stderr, "generating parameters for {} (random setup, for benchmarking only)...\n", circuit->description());
  groth16::os_rng rng;
  const auto tw = groth16::toxic_waste_t::random(rng);
  const auto t0 = std::chrono::steady_clock::now();
  // The setup's fixed-base multiplications go to the GPU when proofs will
  // (the same parameters either way; 4-5x faster on an H200, BENCHMARKS.md).
  const bool on_gpu = o.backend != "cpu" && engine::gpu_available();
  std::vector<std::pair<std::string, double>> steps;
  auto params = std::make_shared<groth16::parameters_t>(
      on_gpu ? groth16::generate_parameters_gpu(*circuit, tw, &steps) : groth16::generate_parameters(*circuit, tw, {}, &steps));
  std::string step_list;
  for (const auto& [name, ms] : steps) step_list += fmt::format(" {} {:.1f}", name, ms / 1e3);
  fmt::print(stderr, "parameters ready in {:.1f} s ({} setup, {:.2f} GiB; s:{})\n",
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), on_gpu ? "GPU" : "CPU",
             double(params->bytes()) / double(uint64_t(1) << 30), step_list);
  return params;
}

std::unique_ptr<engine::engine_t> in_process_engine(const bench_cli_options& o) {
  engine::engine_config_t cfg;
  if (!o.budget.empty() && o.budget != "auto") cfg.total_budget = service::parse_size(o.budget);
  cfg.synthesis_threads = o.synthesis_threads;
  cfg.gpu_workers_per_device = o.workers;
  cfg.release_host_params = !o.keep_host_params;
  engine::engine_hooks_t hooks;
  if (o.backend == "cuda" && !engine::gpu_available())
    throw engine::invalid_request("--backend cuda: no GPU of compute capability >= 9.0 (or built without CUDA)");
  // CPU fallback (the engine's default) takes partitions that fail on every GPU.
  groth16::gpu_prover_options_t gpu_options;
  gpu_options.overlap = !o.gpu_in_turn;
  gpu_options.pin_witness = o.pin_witness;
  gpu_options.residency = gpu::residency_policy_t::parse(o.residency);
  gpu_options.proofs_in_flight = o.workers;
  hooks.backend =
      o.backend == "cpu" ? engine::make_cpu_backend(o.devices) : engine::make_backend(o.backend, gpu_options);
  auto e = std::make_unique<engine::engine_t>(cfg, hooks);
  engine::job_request_t probe;
  probe.proof_kind = engine::proof_kind_t::circuit;
  probe.circuit = o.bench.circuit;
  probe.circuit_size = o.bench.size;
  const auto id = o.bench.vanilla_proof ? engine::engine_t::porep_circuit_id(o.bench.size)
                                        : engine::engine_t::circuit_id_for(probe);
  // The engine owns them: the GPU backend frees the host copy of what it
  // holds (unless --keep-host-params), as for a loaded file. A random setup
  // cannot be read again: a partition that falls back to the CPU fails, saying so.
  e->register_parameters(id, bench_parameters(o), [params = o.params]() -> groth16::parameters_t {
    if (params.empty()) throw std::runtime_error("a random bench setup cannot be loaded again for the CPU fallback");
    return groth16::read_parameters(params);
  });
  return e;
}

// --kind porep: the file's bytes (a Curio envelope, a C1 output or our vanilla
// JSON) go to every job as they are (the engine parses and checks them at
// submit); size and partitions come from the proof.
void load_vanilla(bench_cli_options& o) {
  const std::string text = read_text_file(o.vanilla);
  const auto registered = filecoin::parse_registered_seal_proof(o.registered);
  o.bench.registered_proof = registered.value_or(0);
  const auto v =
      filecoin::read_porep_input({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}, registered).vanilla;
  o.bench.circuit = "porep";
  o.bench.size = v.params.sector_bytes;
  o.bench.partitions = static_cast<uint32_t>(v.partitions.size());
  o.bench.vanilla_proof = std::make_shared<const std::vector<uint8_t>>(text.begin(), text.end());
}

int run_bench_command(bench_cli_options o) {
  const auto names = circuits::circuit_names();
  if (o.kind == "porep") {
    if (o.vanilla.empty()) return report_error("--kind porep needs --vanilla FILE (`cuzk gen-vanilla porep`)");
    load_vanilla(o);
  } else if (!o.vanilla.empty()) {
    return report_error("--vanilla is for --kind porep");
  } else if (std::find(names.begin(), names.end(), o.kind) == names.end()) {
    return report_error(fmt::format("--kind {}: the bench proves built-in circuits ({}) or, with --vanilla FILE, "
                                    "porep",
                                    o.kind, fmt::join(names, ", ")));
  } else {
    o.bench.circuit = o.kind;
  }
  o.bench.timeline = o.bench.timeline || !o.timeline_out.empty();

  std::unique_ptr<engine::engine_t> engine;
  std::unique_ptr<service::proving_target_t> target;
  if (o.daemon.empty()) {
    engine = in_process_engine(o);
    target = service::make_engine_target(*engine);
  } else {
    target = service::make_daemon_target(o.daemon);
  }
  std::vector<bool> modes = o.compare ? std::vector<bool>{false, true} : std::vector<bool>{o.bench.sequential};
  std::vector<service::bench_report_t> reports;
  int failures = 0;
  for (bool sequential : modes) {
    auto opts = o.bench;
    opts.sequential = sequential;
    if (engine) engine::reset_peak_rss();
    reports.push_back(service::run_bench(*target, opts, o.quiet ? nullptr : &std::cerr));
    fmt::print("{}\n", service::format_bench_report(reports.back()));
    failures += static_cast<int>(reports.back().proofs.size() - reports.back().completed());
  }
  if (o.compare && reports[0].completed() > 0 && reports[1].completed() > 0) {
    fmt::print("pipelined {:.3f} s/proof vs sequential {:.3f} s/proof: {:.2f}x\n", reports[0].seconds_per_proof(),
               reports[1].seconds_per_proof(), reports[1].seconds_per_proof() / reports[0].seconds_per_proof());
  }
  if (!o.timeline_out.empty()) {
    write_text_file(o.timeline_out, service::bench_timeline_json(reports).dump(1) + "\n");
    fmt::print("wrote {} (render with `cuzk plot --timeline {} --out FILE.svg`)\n", o.timeline_out, o.timeline_out);
  }
  if (engine) engine->stop();
  return failures == 0 ? exit_ok : exit_internal;
}

}  // namespace

command_t add_bench_command(CLI::App& root) {
  auto o = std::make_shared<bench_cli_options>();
  auto* app = root.add_subcommand("bench", "Throughput of the proving pipeline: N proofs, J in flight, through a daemon or "
                                           "an engine in this process");
  app->add_option("--proofs,-n", o->bench.proofs, "Number of proofs")->check(CLI::Range(1u, 100000u));
  app->add_option("--concurrency,-j", o->bench.concurrency, "Jobs in flight at once")->check(CLI::Range(1u, 4096u));
  app->add_option("--kind,-k", o->kind, "Built-in circuit to prove (see `cuzk circuits`), or porep with --vanilla");
  app->add_option("--vanilla", o->vanilla, "--kind porep: the vanilla proof (JSON, `cuzk gen-vanilla`) every job proves")
      ->check(CLI::ExistingFile);
  app->add_option("--miner-id", o->bench.miner_id,
                  "--kind porep: sent with each request as Curio does; with --sector-num (or the envelope's "
                  "SectorNum) the C1's replica_id is checked against it");
  app->add_option("--sector-num", o->bench.sector_number, "--kind porep: the sector number sent with each request");
  app->add_option("--registered", o->registered,
                  "--kind porep: the registered seal proof sent with each request (0-19 or a name), as Curio sets it");
  app->add_option("--size", o->bench.size, "Circuit size (0 = default)")->check(CLI::NonNegativeNumber);
  app->add_option("--partitions", o->bench.partitions, "Partitions per job")->check(CLI::Range(1u, 1024u));
  app->add_option("--daemon", o->daemon, "Send the proofs to this daemon (unix:///path or IP:port); default: in-process");
  auto* seq = app->add_flag("--sequential", o->bench.sequential, "One job at a time (no overlap between jobs)");
  app->add_flag("--compare", o->compare, "Run pipelined, then sequential, and compare")->excludes(seq);
  app->add_flag("--timeline", o->bench.timeline, "Ask for per-partition stage times (per-stage breakdown)");
  app->add_option("--timeline-out", o->timeline_out, "Write the timeline JSON here (for `cuzk plot`)");
  app->add_flag("--quiet,-q", o->quiet, "No progress lines on stderr");
  auto* in_process = app->add_option_group("in-process engine", "Used only without --daemon");
  in_process->add_option("--params", o->params, "Parameter file from `cuzk setup` (default: a random setup now)")
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
  in_process->add_flag("--pin-witness,!--no-pin-witness", o->pin_witness,
                       "CUDA backend: page-lock each witness's buffers after synthesis so prove_start uploads them by "
                       "DMA, and keep them for later partitions ([gpus] pin_witness; default on)");
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
              } catch (const porep::vanilla_format_error& e) {
                return report_error(o->vanilla + ": " + e.what());
              } catch (const nlohmann::json::exception& e) {
                return report_error(o->vanilla + ": " + e.what());
              }
            });
          }};
}

}  // namespace cuzk::cli
