#pragma once
// Everything one bench run measured. Times are milliseconds since the run
// started (steady clock), so proofs, timelines and samples share one axis.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "service/bench_options_t.hpp"

namespace cuzk::service {

struct bench_proof_t {
  std::string job_id;
  double submit_ms = 0, done_ms = 0;  // as seen by the bench (includes RPC time)
  engine::job_result_t result;
  std::string timeline_json;          // engine_t::timeline_json, when asked for
  // Under load: the target's gauges just before this proof was submitted.
  std::optional<engine::gauge_snapshot_t> met;
};

struct bench_sample_t {
  double t_ms = 0;
  uint64_t rss_bytes = 0;
  engine::gauge_snapshot_t gauges;
};

struct bench_report_t {
  bench_options_t options;
  std::string label;   // names the run in the report ("winning-post under load"); "" = its mode
  std::string target;  // proving_target_t::describe
  double elapsed_ms = 0;
  std::vector<bench_proof_t> proofs;  // in submission order
  std::vector<bench_sample_t> samples;
  uint64_t peak_rss_bytes = 0;  // the prover process's VmHWM at the end
  uint32_t prove_workers = 0;
  // CPU seconds the prover process used during the run (user + system, every
  // thread: synthesis, parsing, finalize, verification, the driver's threads)
  // and its cores; 0 when the target does not report them.
  double cpu_seconds = 0;
  uint32_t cpu_cores = 0;

  std::string mode() const { return options.sequential ? "sequential" : "pipelined"; }
  std::string title() const { return label.empty() ? mode() : label; }
  // Latencies (submit to proof, ms) of the completed proofs.
  std::vector<double> latencies_ms() const;
  uint32_t completed() const;
  double seconds_per_proof() const;  // elapsed / completed; 0 when none completed
  // The sustained rate without the first proof's ramp: (last completion -
  // first completion) / (completed - 1), in seconds; 0 with fewer than 3
  // completed (one interval says little about a pipeline).
  double steady_seconds_per_proof() const;
  // Share of prove-worker time spent in prove_start: sum of gpu_ms over
  // proofs / (elapsed x workers). On the CPU backend the "GPU" is a CPU worker.
  double gpu_busy_share() const;
  // Per device (the timeline's "<backend> device <n>"), the share of the run
  // during which at least one worker of that device was in prove_start: the
  // union of those intervals / elapsed. What "the GPU never waits" means when
  // several workers share a GPU. Empty without timelines.
  std::map<std::string, double> device_busy_shares() const;
  // The CPU headroom (issue 18): core-seconds per completed proof, device
  // seconds per proof (the devices' busy shares x elapsed / completed, summed
  // over devices), and how many devices that busy this host's cores could
  // feed if the CPU work per proof stays as measured: cores x device seconds
  // / core-seconds. Zeros where either side is unknown.
  struct headroom_t {
    double core_seconds_per_proof = 0, device_seconds_per_proof = 0, devices_fed = 0;
  };
  headroom_t headroom() const;
};

// One `--load-vanilla` run (bench_load_options_t): the PoSt proofs idle and
// under load, and the load stream itself (its proofs in completion order,
// its elapsed time from its first submit to its last return).
struct bench_load_report_t {
  bench_report_t idle, loaded, stream;
  double loaded_start_ms = 0, loaded_end_ms = 0;  // the loaded PoSt window, on the stream's time axis
  // Stream jobs that completed inside the loaded window.
  uint32_t stream_completed_in_window() const;
};

}  // namespace cuzk::service
