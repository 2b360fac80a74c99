#pragma once
// What `cuzk bench` runs: `proofs` jobs, at most `concurrency` in flight (each
// in-flight slot submits the next job as soon as its previous one returns).
// sequential = one job at a time, so nothing overlaps except the partitions
// of one job (use partitions = 1 for none).
// Without `request` every job is the built-in `circuit` at `size`; with it,
// every job sends a copy of that request (a PoRep C2 of one vanilla proof, a
// WindowPoSt partition or a WinningPoSt, read from files as Curio would send
// them), and circuit / size / partitions only label the report.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/job_request_t.hpp"

namespace cuzk::service {

struct bench_options_t {
  std::string circuit = "hash-chain";
  uint64_t size = 0;        // 0 = the circuit's default
  uint32_t partitions = 1;  // partitions per job
  uint32_t proofs = 4;
  uint32_t concurrency = 2;
  bool sequential = false;
  bool timeline = false;    // ask the engine for per-partition stage times
  // Shared: a 32 GiB C1 is 50 MB, and the options are copied into each report.
  std::shared_ptr<const engine::job_request_t> request;
  std::chrono::milliseconds sample_interval{100};    // RSS and gauge samples
  std::chrono::milliseconds progress_interval{1000};  // progress lines, when a stream is given
};

// `cuzk bench ... --load-vanilla FILE`: the PoSt proofs of a bench_options_t
// measured twice, idle (one after another on a quiet engine) and under load:
// while `stream` (PoRep jobs, `stream.concurrency` of them always in flight,
// each slot resubmitting as soon as its job returns) keeps the pipeline busy.
// The loaded PoSt proofs start once the stream is warm: after `warmup`, or,
// when it is zero, once the first stream job has returned (by then each of
// its partitions went through synthesis, the prove workers and finalize, and
// the other slots' jobs are in flight behind it). Each loaded proof is
// submitted alone, after the previous one returned and once the target's
// gauges show partitions in flight (up to busy_wait; then it goes anyway and
// the report says what it met).
struct bench_load_options_t {
  bench_options_t stream;  // stream.proofs is ignored: the stream runs until the loaded proofs are done
  std::chrono::milliseconds warmup{0};
  std::chrono::milliseconds busy_wait{10000};
};

}  // namespace cuzk::service
