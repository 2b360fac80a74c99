#pragma once
// Everything one bench run measured. Times are milliseconds since the run
// started (steady clock), so proofs, timelines and samples share one axis.
#include <cstdint>
#include <map>
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
};

struct bench_sample_t {
  double t_ms = 0;
  uint64_t rss_bytes = 0;
  engine::gauge_snapshot_t gauges;
};

struct bench_report_t {
  bench_options_t options;
  std::string target;  // proving_target_t::describe
  double elapsed_ms = 0;
  std::vector<bench_proof_t> proofs;  // in submission order
  std::vector<bench_sample_t> samples;
  uint64_t peak_rss_bytes = 0;  // the prover process's VmHWM at the end
  uint32_t prove_workers = 0;

  std::string mode() const { return options.sequential ? "sequential" : "pipelined"; }
  uint32_t completed() const;
  double seconds_per_proof() const;  // elapsed / completed; 0 when none completed
  // Share of prove-worker time spent in prove_start: sum of gpu_ms over
  // proofs / (elapsed x workers). On the CPU backend the "GPU" is a CPU worker.
  double gpu_busy_share() const;
  // Per device (the timeline's "<backend> device <n>"), the share of the run
  // during which at least one worker of that device was in prove_start: the
  // union of those intervals / elapsed. What "the GPU never waits" means when
  // several workers share a GPU. Empty without timelines.
  std::map<std::string, double> device_busy_shares() const;
};

}  // namespace cuzk::service
