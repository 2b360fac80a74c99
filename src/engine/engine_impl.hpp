#pragma once
// Engine-internal: the state behind engine_t and its stage loops. Split over
// engine.cpp (requests), engine_stages.cpp (the pipeline threads) and
// engine_report.cpp (status, metrics, timeline).
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/budget_plan_t.hpp"
#include "engine/engine.hpp"
#include "engine/gauge_set_t.hpp"
#include "engine/job_state_t.hpp"
#include "engine/keyed_queue_t.hpp"
#include "engine/memory_budget_t.hpp"
#include "engine/param_store_t.hpp"
#include "engine/partition_work_t.hpp"
#include "r1cs/buffer_pool_t.hpp"

namespace cuzk::engine {

using work_queue_t = keyed_queue_t<work_key_t, partition_work_t>;

// "1.234 GiB", for messages and logs.
std::string gib_text(uint64_t bytes);

class engine_t::impl {
 public:
  impl(engine_config_t config, engine_hooks_t hooks);
  ~impl();

  submit_result_t submit(job_request_t request);
  job_result_t await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout);
  bool cancel(const std::string& job_id);
  engine_status_t status() const;
  std::string metrics_text() const;
  std::string timeline_json(const std::string& job_id) const;
  void drain();
  void stop();
  // Tells the backend of a parameter set to come (engine_t::preload_all):
  // its priority and file bytes, when a file exists for it.
  void announce(const std::string& circuit_id);
  // backend_->claim_residency then backend_->prepare(params), logged; a
  // failure only warns (prove_start builds what it needs, or the partition
  // falls back).
  void prepare(const std::string& circuit_id, const groth16::parameters_t& params);
  // param_store_t's ready hook for a freshly loaded file: prepare, then
  // (config release_host_params) backend_->release_host_copy.
  void ready(param_entry_t& e);
  // The stream hooks' load (param_store_t::set_stream_hooks): claims the
  // set's whole size on the devices, then has the backend read the unread
  // queries from the file itself (prove_backend_t::prepare_from_file).
  // backend_->claim_rows with the device bytes of an official circuit's
  // compiled rows (circuits::compiled_for), once per id, when the backend
  // forms compact witnesses' rows on the device.
  void claim_rows(const std::string& circuit_id);
  void load_to_devices(param_entry_t& e, uint32_t unread, const groth16::parameter_file_t& file,
                       ec::subgroup_check chk);
  // After engine_t::evict: queued jobs of that id get their parameters loaded again.
  void evicted(const std::string& circuit_id);

  const engine_config_t config_;
  const engine_hooks_t hooks_;
  const budget_plan_t plan_;
  const steady_clock::time_point started_ = steady_clock::now();
  gauge_set_t gauges_;
  memory_budget_t budget_;
  param_store_t params_;

 private:
  // requests (engine.cpp)
  std::shared_ptr<job_state_t> make_job(const job_request_t& r);
  std::shared_ptr<job_state_t> find_job(const std::string& id) const;
  job_result_t result_locked(const job_state_t& job) const;
  void purge_expired_locked();

  // pipeline (engine_stages.cpp)
  void start_threads();
  void dispatcher_loop();
  // What became of a partition the dispatcher took: granted its bytes (to a
  // synthesis worker), dropped (its job ended), or back in the scheduler,
  // with its key, because more urgent work was queued or its parameters
  // were evicted meanwhile.
  enum class dispatch_t { granted, dropped, gave_way };
  dispatch_t dispatch(partition_work_t& w);
  // Gives w its parameters (its own, its job's, or the store's, then pinned
  // to the job); false when none are loaded.
  bool attach_params(partition_work_t& w);
  // Its parameters are loaded (the scheduler skips the others, so a PoSt is
  // never queued behind a PoRep file being read).
  bool params_ready(const partition_work_t& w) const;
  // A partition of a priority above `bound`'s is queued and ready to dispatch.
  bool more_urgent_queued(const work_key_t& bound) const;
  // Starts loading a circuit's parameters on a loader thread of its own,
  // unless one is loading them already.
  void request_load(const std::string& circuit_id);
  void load_params(std::stop_token stop, const std::string& circuit_id);
  void synthesis_loop();
  void synthesize(partition_work_t&& w);
  // A critical worker (engine_config_t::critical_workers_per_device) takes
  // only critical-priority partitions, on high-priority CUDA streams.
  void prove_loop(uint32_t worker, uint32_t device, bool critical);
  void prove_start(partition_work_t&& w, uint32_t worker, uint32_t device);
  // Whether every device failed w: it goes to the fallback backend.
  bool to_fallback(const partition_work_t& w) const;
  void finalize_loop();
  void finalize(partition_work_t&& w);
  void attempt_failed(partition_work_t&& w, const std::string& what);
  void partition_done(partition_work_t& w, const std::array<uint8_t, groth16::proof_size>& proof);
  void halt_job(const std::shared_ptr<job_state_t>& job, job_status_t status, const std::string& why);
  void drop_queued(const std::shared_ptr<job_state_t>& job);
  partition_work_t ticket(const std::shared_ptr<job_state_t>& job, uint32_t index);
  void note(partition_work_t& w, const char* stage, steady_clock::time_point start, const std::string& where);
  void note_steps(partition_work_t& w, const char* prefix, steady_clock::time_point start,
                  const std::vector<std::pair<std::string, double>>& steps);
  void set_worker(uint32_t worker, const partition_work_t* w);

  std::shared_ptr<prove_backend_t> backend_, fallback_;
  // Synthesis hands compact witnesses to prove_start (engine_config_t::compact_witness).
  bool compact_witness_ = false;
  // Ids claimed on the backend (announce, or a load's plan that claimed first).
  std::mutex claimed_mu_;
  std::set<std::string> claimed_;
  std::set<std::string> rows_claimed_;  // ids whose compiled rows were claimed (claim_rows)
  // Witness buffers kept between partitions when the backend asks for it
  // (prove_backend_t::pools_witness); paid for through budget_'s pooled bytes.
  std::unique_ptr<r1cs::buffer_pool_t> pool_;
  std::atomic<uint64_t> pool_tokens_{0};

  // Stages, in pipeline order. The synthesis hand-off holds at most one item
  // per idle synthesis worker: the dispatcher reserves memory only for a
  // partition a worker is ready to start.
  work_queue_t scheduler_;
  work_queue_t synth_handoff_;
  work_queue_t gpu_queue_;
  work_queue_t finalize_queue_;

  std::mutex slots_mu_;
  std::condition_variable slots_cv_;
  uint32_t synth_idle_ = 0;  // synthesis workers not holding a partition

  mutable std::mutex jobs_mu_;
  std::condition_variable jobs_cv_;
  std::map<std::string, std::shared_ptr<job_state_t>> jobs_;
  uint64_t next_seq_ = 0;
  bool accepting_ = true;
  uint64_t completed_ = 0, failed_ = 0, cancelled_ = 0;
  std::map<proof_kind_t, uint64_t> completed_by_kind_, failed_by_kind_;
  std::map<proof_kind_t, std::deque<double>> durations_;  // last 1000 seconds per kind

  mutable std::mutex workers_mu_;
  std::vector<worker_status_t> workers_;  // by worker id: ordinary workers, then critical ones

  // Parameter loads in progress (or finished, not yet joined), one thread per
  // circuit id: loads of different ids never wait for each other.
  struct param_load_t {
    std::jthread thread;
    bool done = false;
  };
  std::mutex loads_mu_;
  std::map<std::string, param_load_t> loads_;

  std::atomic<bool> stopping_{false};
  bool stopped_ = false;
  std::mutex stop_mu_;
  std::vector<std::jthread> threads_;
};

}  // namespace cuzk::engine
