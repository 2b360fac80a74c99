#pragma once
// Public header of the engine layer: the proving pipeline of DESIGN.md 2 and 4.
//
//   submit -> scheduler (priority, then FIFO; a job is split into partitions,
//   the oldest job's lowest partition first) -> dispatcher reserves the
//   partition's FULL footprint from the memory budget -> synthesis pool ->
//   short queue (depth ~2 per prove worker; the budget, not the queue, bounds
//   memory) -> prove workers (prove_start; reservation shrinks to the pending
//   handle) -> finalizer pool (finalize, verify, encode; reservation returned)
//   -> result kept result_retention_s for await().
//
// Every method is thread-safe. Usable in-process without the service (tests,
// `cuzk bench`): register_parameters() supplies parameters without files.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/budget_plan_t.hpp"
#include "engine/cpu_backend_t.hpp"
#include "engine/engine_config_t.hpp"
#include "engine/engine_hooks_t.hpp"
#include "engine/engine_status_t.hpp"
#include "engine/engine_stopped.hpp"
#include "engine/invalid_request.hpp"
#include "engine/job_request_t.hpp"
#include "engine/job_result_t.hpp"
#include "engine/fault_injecting_backend_t.hpp"
#include "engine/never_fits.hpp"
#include "engine/partition_footprint_t.hpp"
#include "engine/process_memory_t.hpp"
#include "engine/submit_result_t.hpp"
#include "engine/unknown_job.hpp"
#include "groth16/parameters_t.hpp"

namespace cuzk::engine {

struct preload_result_t {
  bool already_loaded = false;
  uint64_t load_time_ms = 0;
  // An official circuit id (porep-*, wpost-*, winning-*, snap-*): its
  // compiled rows and their bound on aux values other than 0 and 1, built
  // now so its first job does not build them on its submit (seconds at
  // 32 GiB); the time it took here (0 when an earlier call built them).
  std::optional<uint64_t> wide_bound;
  uint64_t compile_ms = 0;
};

struct evict_result_t {
  bool was_loaded = false;
  uint64_t freed_bytes = 0;
};

class engine_t {
 public:
  explicit engine_t(engine_config_t config, engine_hooks_t hooks = {});
  ~engine_t();  // stop(): drains in-flight work, then joins every thread
  engine_t(const engine_t&) = delete;
  engine_t& operator=(const engine_t&) = delete;

  // Throws invalid_request (malformed; what() names the field), never_fits
  // (footprint larger than the whole budget), engine_stopped.
  // A request_id already known (Curio retries with the same id): the same
  // request attaches to its running job, or to its job completed within
  // result_retention_s (attached = true, no new job); a different request
  // while that job runs is invalid_request naming the conflict; after a
  // failure or cancel (or for a different request after completion) a new
  // job starts under that id.
  submit_result_t submit(job_request_t request);

  // Waits for the job; nullopt = forever. On timeout returns status timeout
  // (the job keeps running). Throws unknown_job.
  job_result_t await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout = std::nullopt);

  // submit + await.
  job_result_t prove(job_request_t request);

  // Queued partitions are dropped and their reservations returned at once;
  // running ones stop at their next stage boundary. Returns whether any
  // partition had left the scheduler. Throws unknown_job.
  bool cancel(const std::string& job_id);

  engine_status_t status() const;
  std::string metrics_text() const;  // Prometheus text format

  // circuit_id: "<name>" or "<name>-<size>" for built-in circuits (e.g.
  // "tiny", "hash-chain-65536"); the file is <param_cache>/<circuit_id>.params
  // (PoRep ids: the official v28-… file when present, param_store_t.hpp).
  // Loading charges the parameters' bytes to the budget. Throws invalid_request
  // for an unknown id or a missing/bad file.
  preload_result_t preload(const std::string& circuit_id);
  // The daemon's [srs] preload: announces every id to the backend's residency
  // plan (priority and file bytes: prove_backend_t::claim_residency), then
  // preloads them highest priority first (circuit_priority), so a GPU places
  // WinningPoSt and WindowPoSt parameters before PoRep's in whatever order
  // they are listed, and a PoRep set loaded later leaves them their room.
  // Throws like preload at the first id that fails.
  std::vector<std::pair<std::string, preload_result_t>> preload_all(const std::vector<std::string>& circuit_ids);
  evict_result_t evict(const std::string& circuit_id);  // refuses nothing; in-use ones stay until released

  // In-process parameters (tests, bench): no file needed, charged like a load.
  void register_parameters(const std::string& circuit_id, std::shared_ptr<const groth16::parameters_t> params);
  // Parameters the engine owns from here on (nothing else may read their
  // vectors): as above, and the backend may free the host copy of the
  // queries it holds itself, as for a loaded file (engine_config_t::
  // release_host_params); `reload` gives them complete again for the CPU
  // fallback (it may throw: the partition's attempt then fails, naming why).
  void register_parameters(const std::string& circuit_id, std::shared_ptr<groth16::parameters_t> params,
                           std::function<groth16::parameters_t()> reload);

  // The circuit id a request proves with (for register_parameters/preload).
  // PoRep: from sector_size (0 reads as 32 GiB; submit takes the size from
  // the vanilla proof).
  static std::string circuit_id_for(const job_request_t& request);
  // "porep-2k", "porep-8m", "porep-512m", "porep-32g", "porep-64g".
  static std::string porep_circuit_id(uint64_t sector_bytes);
  // "wpost-2k" .. "wpost-64g", "winning-2k" .. "winning-64g" (the PreloadSrs
  // ids of CUZK_API.md). Throws std::invalid_argument for another size.
  static std::string post_circuit_id(proof_kind_t kind, uint64_t sector_bytes);
  // What one partition of this request reserves (validates it like submit).
  static partition_footprint_t partition_footprint_for(const job_request_t& request);

  // Threads and budget as resolved at construction.
  const budget_plan_t& plan() const;

  // Per-partition stage start/end times in ms since submit, for a job
  // submitted with timeline = true: {"job_id":..,"partitions":[{"index":0,
  // "attempts":1,"events":[{"stage":"synthesis","start_ms":..,"end_ms":..},..]}]}.
  // Throws unknown_job.
  std::string timeline_json(const std::string& job_id) const;

  // Refuse new jobs and wait until every accepted job has finished.
  void drain();
  // drain(), then stop the threads. Idempotent.
  void stop();

 private:
  class impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace cuzk::engine
