// The pipeline threads of engine_t (DESIGN.md 2): dispatcher -> synthesis ->
// prove workers -> finalizers, and beside them one loader thread per
// parameter file being read. Each partition_work_t carries its reservation
// and gauge place from stage to stage; nothing else counts memory.
//
// Priority at admission (issue 16, "PoSt first"): the dispatcher takes the
// best partition whose parameters are loaded, a partition waiting for bytes
// goes back to the scheduler (same key) when more urgent work is queued, and
// critical partitions may use the budget's critical reserve. A running
// partition is never preempted; more urgent work waits for bytes being
// released and for a synthesis worker to be free. Nor is a running
// prove_start: instead each device has critical workers
// (critical_workers_per_device) that take only critical partitions from the
// GPU queue, on high-priority CUDA streams, so a WinningPoSt never waits for
// a PoRep prove_start to end and its blocks go ahead of PoRep's on the SMs.
#include <spdlog/spdlog.h>
#include <tbb/task_arena.h>

#include <algorithm>

#include "engine/engine_impl.hpp"
#include "gpu/stream_priority.hpp"
#include "groth16/prover_checks.hpp"
#include "groth16/rng.hpp"

namespace cuzk::engine {
namespace {

uint64_t ms_between(steady_clock::time_point a, steady_clock::time_point b) {
  return uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count());
}

uint64_t device_bit(uint32_t device) { return device < 64 ? uint64_t(1) << device : 0; }

}  // namespace

partition_work_t engine_t::impl::ticket(const std::shared_ptr<job_state_t>& job, uint32_t index) {
  partition_work_t w;
  w.job = job;
  w.index = index;
  return w;
}

void engine_t::impl::start_threads() {
  synth_idle_ = plan_.synthesis_workers;
  uint32_t worker = 0;
  // worker_status_t has no field for it: critical workers are those with an
  // id from plan_.prove_workers on (status lists them after the others).
  for (const uint32_t per_device : {config_.gpu_workers_per_device, config_.critical_workers_per_device}) {
    for (uint32_t d : plan_.devices) {
      for (uint32_t k = 0; k < per_device; ++k) {
        worker_status_t s;
        s.worker_id = worker++;
        s.device = d;
        s.backend = backend_->name();
        workers_.push_back(std::move(s));
      }
    }
  }
  threads_.emplace_back([this] { dispatcher_loop(); });
  for (uint32_t i = 0; i < plan_.synthesis_workers; ++i) threads_.emplace_back([this] { synthesis_loop(); });
  for (const auto& w : workers_) {
    const bool critical = w.worker_id >= plan_.prove_workers;
    threads_.emplace_back([this, id = w.worker_id, d = w.device, critical] { prove_loop(id, d, critical); });
  }
  for (uint32_t i = 0; i < plan_.finalizer_threads; ++i) threads_.emplace_back([this] { finalize_loop(); });
}

// One thread, so budget grants follow scheduler order (CUZK_API.md 7.3 F15)
// among partitions whose parameters are loaded; those still loading stay
// queued (a loader thread pokes the scheduler when they are ready).
void engine_t::impl::dispatcher_loop() {
  auto ready = [this](const partition_work_t& p) { return p.job->halted || params_ready(p); };
  for (;;) {
    {
      std::unique_lock lk(slots_mu_);
      slots_cv_.wait(lk, [&] { return stopping_ || synth_idle_ > 0; });
      if (stopping_) return;
      --synth_idle_;  // claimed: reserve only for a partition a worker will start now
    }
    auto w = scheduler_.pop(ready);
    bool handed = false;
    if (w && !w->job->halted) {
      const auto key = w->key();
      switch (dispatch(*w)) {
        case dispatch_t::granted: handed = synth_handoff_.push(key, std::move(*w)); break;
        case dispatch_t::gave_way: scheduler_.push(key, std::move(*w)); break;
        case dispatch_t::dropped: break;
      }
    }
    if (!handed) {
      std::lock_guard lk(slots_mu_);
      ++synth_idle_;
    }
    if (!w) return;
  }
}

bool engine_t::impl::params_ready(const partition_work_t& w) const {
  return w.params != nullptr || params_.loaded(w.job->circuit_id) != nullptr;
}

bool engine_t::impl::more_urgent_queued(const work_key_t& bound) const {
  const work_key_t first_of_priority{bound.inverse_priority, 0, 0};
  return scheduler_.any_before(first_of_priority,
                               [this](const partition_work_t& p) { return !p.job->halted && params_ready(p); });
}

bool engine_t::impl::attach_params(partition_work_t& w) {
  const auto& job = w.job;
  if (!w.params) {
    std::lock_guard lk(jobs_mu_);
    w.params = job->params;
  }
  if (!w.params) w.params = params_.loaded(job->circuit_id);
  if (!w.params) return false;
  {
    std::lock_guard lk(jobs_mu_);
    if (job->status == job_status_t::unknown && !job->params) job->params = w.params;
  }
  w.params->touch();
  return true;
}

engine_t::impl::dispatch_t engine_t::impl::dispatch(partition_work_t& w) {
  const auto job = w.job;
  const auto key = w.key();
  bool gave_way = false;
  // Called under the budget's lock, on every release and wake_all (submit
  // and finished loads call it): a partition waiting for bytes steps aside
  // for more urgent work instead of holding the dispatcher. Nothing granted
  // is taken back: more urgent work waits only for bytes being released.
  auto abandon = [&] {
    if (stopping_ || job->halted) return true;
    return gave_way = more_urgent_queued(key);
  };
  if (!attach_params(w)) {
    // Evicted since the scheduler found them: queued again until they load.
    request_load(job->circuit_id);
    return dispatch_t::gave_way;
  }
  // A partition every device failed goes to the fallback backend: its footprint.
  w.footprint = to_fallback(w) ? job->fallback_footprint : job->footprint;
  const uint64_t full = w.footprint.full();
  const auto share =
      job->priority == priority_t::critical ? memory_budget_t::share_t::critical : memory_budget_t::share_t::general;
  if (full + w.params->bytes > budget_.limit(share)) {
    // Only the fallback's footprint can be larger than admission allowed for.
    halt_job(job, job_status_t::failed,
             fmt::format("partition {} failed on every device, and the CPU fallback needs {} per partition beside "
                         "its parameters' {}: more than the memory budget's {}",
                         w.index, gib_text(full), gib_text(w.params->bytes), gib_text(budget_.limit(share))));
    return dispatch_t::dropped;
  }
  // Idle pooled witness buffers pay for part of it when this partition can use them.
  const uint64_t token = pool_ ? ++pool_tokens_ : 0;
  memory_budget_t::claim_t claim;
  if (pool_) {
    claim = [this, token, most = w.footprint.witness](uint64_t min, uint64_t max, bool dry_run) {
      return dry_run ? pool_->promisable(std::min(max, most)) : pool_->promise(token, min, std::min(max, most));
    };
  }
  auto r = budget_.try_reserve(full, false, claim, share);
  if (!r) {
    params_.evict_idle(full, job->circuit_id);
    r = budget_.reserve(full, abandon, false, claim, share);
  }
  if (!r) return gave_way && !stopping_ && !job->halted ? dispatch_t::gave_way : dispatch_t::dropped;
  {
    std::lock_guard lk(jobs_mu_);
    if (job->status != job_status_t::unknown) {
      if (token) pool_->forfeit(token);  // freed before the reservation that paid for them
      return dispatch_t::dropped;
    }
    ++job->live;
    job->started = true;
  }
  w.retire = scope_token_t([this, job] {
    {
      std::lock_guard lk(jobs_mu_);
      --job->live;
    }
    jobs_cv_.notify_all();
  });
  w.reservation = std::move(*r);
  w.pool_token = token;
  if (token) w.pool_promise = scope_token_t([this, token] { pool_->forfeit(token); });
  w.gauge = gauge_t(gauges_);
  return dispatch_t::granted;
}

void engine_t::impl::request_load(const std::string& circuit_id) {
  std::lock_guard lk(loads_mu_);
  if (stopping_) return;
  std::erase_if(loads_, [](const auto& kv) { return kv.second.done; });  // joins the finished
  if (loads_.contains(circuit_id)) return;
  auto& load = loads_[circuit_id];
  load.thread = std::jthread([this, circuit_id](std::stop_token stop) { load_params(std::move(stop), circuit_id); });
}

// A loader thread: reads one parameter file (param_store_t::acquire charges
// the budget and prepares the backend), pins it to every job that waits for
// it, or fails them with the reason, then lets the dispatcher see them.
void engine_t::impl::load_params(std::stop_token stop, const std::string& id) {
  {
    // The GPU backend creates each parameter set's MSM streams while
    // preparing it, on this thread, and keeps them: those of WinningPoSt's
    // circuits (engine_t::post_circuit_id: "winning-*", CRITICAL by default)
    // or of one a critical job waits for get the device's greatest priority.
    std::lock_guard lk(jobs_mu_);
    gpu::set_thread_stream_priority(id.starts_with("winning-") || std::ranges::any_of(jobs_, [&](const auto& kv) {
                                      return kv.second->circuit_id == id && kv.second->priority == priority_t::critical;
                                    }));
  }
  const auto t0 = steady_clock::now();
  std::shared_ptr<param_entry_t> e;
  bool loaded = false;
  std::string error;
  try {
    e = params_.acquire(id, [&] { return stopping_.load() || stop.stop_requested(); }, &loaded);
  } catch (const std::exception& err) {
    error = err.what();
  }
  const uint64_t ms = ms_between(t0, steady_clock::now());
  {
    // Before looking at the jobs: one submitted after that look starts a
    // load of its own (found loaded at once, or failing again for it).
    std::lock_guard lk(loads_mu_);
    loads_[id].done = true;
  }
  std::vector<std::shared_ptr<job_state_t>> failing;
  {
    std::lock_guard lk(jobs_mu_);
    for (const auto& [key, j] : jobs_) {
      if (j->circuit_id != id || j->status != job_status_t::unknown) continue;
      if (e && !j->params) {
        j->params = e;
        if (loaded) j->srs_load_ms += ms;
      } else if (!e && !error.empty()) {
        failing.push_back(j);
      }
    }
  }
  for (const auto& j : failing) halt_job(j, job_status_t::failed, "loading parameters for '" + id + "': " + error);
  e.reset();  // the jobs hold them now; an entry nobody wants stays evictable
  // Its partitions may now be more urgent than one waiting for bytes.
  scheduler_.poke();
  budget_.wake_all();
}

namespace {

// As many slots as cores; up to 4 critical syntheses at once join it on
// their own threads (a fifth is run by one of its workers, execute waits).
tbb::task_arena& critical_arena() {
  static tbb::task_arena arena(tbb::task_arena::automatic, 4, tbb::task_arena::priority::high);
  return arena;
}

}  // namespace

void engine_t::impl::synthesis_loop() {
  while (auto w = synth_handoff_.pop()) {
    synthesize(std::move(*w));
    {
      std::lock_guard lk(slots_mu_);
      ++synth_idle_;
    }
    slots_cv_.notify_all();
  }
}

void engine_t::impl::synthesize(partition_work_t&& w) {
  const auto job = w.job;
  if (job->halted) return;
  const auto t0 = steady_clock::now();
  w.gauge.enter(gauge_kind_t::synthesizing, "synth_start");
  {
    std::lock_guard lk(jobs_mu_);
    if (!job->first_synthesis) job->first_synthesis = t0;
  }
  try {
    auto run = [&] {
      {
        // a, b, c and aux come from the buffers promised at dispatch; the rest is freed.
        r1cs::buffer_pool_t::take_scope pooled(w.pool_token);
        const auto& circuit = *job->circuits[w.index];
        w.witness.emplace(compact_witness_ ? circuit.prove_witness_compact(job->shape) : circuit.prove_witness(job->shape));
      }
      w.pool_promise.reset();
      // Here rather than in prove_start: synthesis workers have slack, the
      // prove worker feeding the GPU does not.
      groth16::check_witness_rows(*w.witness);
      backend_->prepare_witness(*w.witness);
    };
    if (job->priority == priority_t::critical) {
      // In TBB's high-priority arena: the worker threads go to its tasks
      // first as they finish their current ones, so a WinningPoSt's
      // synthesis is not spread thin among sixteen PoRep syntheses.
      critical_arena().execute(run);
    } else {
      run();
    }
  } catch (const std::exception& e) {
    // A circuit that cannot produce its witness, or produces an unsatisfied
    // one, fails the same way every time: no retry.
    halt_job(job, job_status_t::failed, fmt::format("synthesis of partition {} failed: {}", w.index, e.what()));
    return;
  }
  note(w, "synthesis", t0, "");
  w.gauge.enter(gauge_kind_t::queued, "synth_done");
  // A compact witness whose rows the device forms holds a fraction of what
  // synthesis needed (~0.1 of ~7.8 GiB at 32 GiB PoRep): the rest goes back
  // now, for the next partition's synthesis. The fallback (every device
  // failed this partition) forms rows on the host: nothing goes back.
  if (!to_fallback(w)) {
    if (const auto held = backend_->witness_held_bytes(*w.witness)) {
      const uint64_t keep = *held + w.footprint.pending;
      if (keep < w.reservation.bytes()) w.reservation.shrink_to(keep, "synth_compact");
    }
  }
  w.queued_at = steady_clock::now();
  const auto key = w.key();
  // Blocks while the short queue is full, except for critical work: a
  // WinningPoSt synthesized behind a queue of PoRep partitions goes in at
  // once (its key puts it first) instead of waiting for a prove worker to
  // take one of them.
  const bool critical = job->priority == priority_t::critical;
  gpu_queue_.push(key, std::move(w), critical);
}

void engine_t::impl::prove_loop(uint32_t worker, uint32_t device, bool critical) {
  uint64_t all = 0;
  for (uint32_t d : plan_.devices) all |= device_bit(d);
  const uint64_t mine = device_bit(device);
  // The streams prove_start creates on this thread (NTTs, compaction,
  // uploads) get the device's greatest priority.
  gpu::set_thread_stream_priority(critical);
  // A partition that failed here waits for another device; once it failed on
  // every device, any worker takes it to the fallback backend (a critical
  // worker only a critical one).
  auto accept = [&](const partition_work_t& p) {
    if (critical && p.job->priority != priority_t::critical) return false;
    return (p.failed_devices & mine) == 0 || (p.failed_devices & all) == all;
  };
  while (auto w = gpu_queue_.pop(accept)) prove_start(std::move(*w), worker, device);
}

bool engine_t::impl::to_fallback(const partition_work_t& w) const {
  uint64_t all = 0;
  for (uint32_t d : plan_.devices) all |= device_bit(d);
  return (w.failed_devices & all) == all;
}

void engine_t::impl::prove_start(partition_work_t&& w, uint32_t worker, uint32_t device) {
  const auto job = w.job;
  if (job->halted) return;
  const bool fallback = to_fallback(w);
  const auto& backend = fallback ? fallback_ : backend_;
  const uint32_t dev = fallback ? 0 : device;
  note(w, "queue", w.queued_at, "");
  set_worker(worker, &w);
  w.gauge.enter(gauge_kind_t::on_gpu, "prove_start");
  const auto t0 = steady_clock::now();
  // The witness buffers prove_start kept in the pool are paid for from here
  // on by pooled bytes of the budget, moved from this partition's reservation.
  auto bank_kept = [&] {
    if (!pool_) return;
    const uint64_t spare = w.reservation.bytes() - std::min(w.reservation.bytes(), w.footprint.pending);
    budget_.bank(w.reservation, pool_->take_kept(spare));
  };
  try {
    // The fallback needs every query on the host: read again if the GPU backend released some.
    const auto params = fallback ? params_.complete(*w.params) : w.params->params;
    w.pending.emplace(backend->prove_start(dev, *params, std::move(*w.witness)));
  } catch (const groth16::unsatisfied_witness& e) {
    // A compact witness's rows are first formed here: unsatisfied, it fails
    // the same way on every device, so the job fails now (as after synthesis).
    bank_kept();
    set_worker(worker, nullptr);
    halt_job(job, job_status_t::failed, fmt::format("partition {}: {}", w.index, e.what()));
    return;
  } catch (const std::exception& e) {
    bank_kept();
    set_worker(worker, nullptr);
    if (!fallback) w.failed_devices |= device_bit(device);
    attempt_failed(std::move(w), fmt::format("prove_start on {} device {}: {}", backend->name(), dev, e.what()));
    return;
  }
  set_worker(worker, nullptr);
  w.witness.reset();
  bank_kept();
  // Gauge first, bytes second: at every transition the bytes cover what the gauges count.
  w.gauge.enter(gauge_kind_t::pending_finalize, "prove_done");
  w.reservation.shrink_to(w.footprint.pending, "abc_freed");
  note(w, "prove_start", t0, fmt::format("worker {} {} device {}", worker, backend->name(), dev));
  note_steps(w, "prove_start.", t0, w.pending->stage_ms);
  w.backend = backend;
  w.device = dev;
  const auto key = w.key();
  finalize_queue_.push(key, std::move(w));
}

void engine_t::impl::finalize_loop() {
  while (auto w = finalize_queue_.pop()) finalize(std::move(*w));
}

void engine_t::impl::finalize(partition_work_t&& w) {
  const auto job = w.job;
  if (job->halted) return;
  thread_local groth16::os_rng rng;  // r, s fresh and secret for every partition
  const auto t0 = steady_clock::now();
  groth16::proof_t proof;
  try {
    const ff::fr_t r = ff::fr_t::random(rng), s = ff::fr_t::random(rng);
    proof = w.backend->finalize(w.device, *w.params->params, std::move(*w.pending), r, s);
  } catch (const std::exception& e) {
    attempt_failed(std::move(w), fmt::format("finalize on {}: {}", w.backend->name(), e.what()));
    return;
  }
  w.pending.reset();
  note(w, "finalize", t0, "");
  if (config_.verify_proofs) {
    // Against the circuit's own public inputs, not the prover's echo of them (F16).
    const auto t1 = steady_clock::now();
    std::string why = "the proof does not verify";
    bool ok = false;
    try {
      ok = w.params->pvk->verify(proof, job->circuits[w.index]->public_inputs());
    } catch (const std::exception& e) {
      why = e.what();
    }
    note(w, "verify", t1, "");
    if (!ok) {
      attempt_failed(std::move(w), fmt::format("partition {}: {}", w.index, why));
      return;
    }
  }
  w.gauge.reset("finalize");
  w.reservation.release("finalize");
  // Before the job can complete: a caller that evicts the parameters right
  // after its result arrives must find them unused (and their bytes freed).
  w.params.reset();
  partition_done(w, proof.encode());
}

void engine_t::impl::attempt_failed(partition_work_t&& w, const std::string& what) {
  const auto job = w.job;
  const uint32_t index = w.index, attempts = w.attempt + 1;
  const uint64_t failed_devices = w.failed_devices;
  auto params = w.params;
  spdlog::warn("engine: job {} partition {} attempt {} of {} failed: {}", job->id, index, attempts,
               config_.max_attempts, what);
  {
    std::lock_guard lk(jobs_mu_);
    ++job->retries;
  }
  w.gauge.reset("attempt_failed");
  w.reservation.release("attempt_failed");
  { partition_work_t dead = std::move(w); }
  if (attempts >= config_.max_attempts) {
    halt_job(job, job_status_t::failed,
             fmt::format("partition {} failed {} times; last error: {}", index, attempts, what));
    return;
  }
  // Re-synthesize: prove_start consumed the witness. Same key, so it goes first.
  auto t = ticket(job, index);
  t.params = std::move(params);  // still loaded: the retry is dispatchable at once
  t.attempt = attempts;
  t.failed_devices = failed_devices;
  const auto key = t.key();
  if (!job->halted) scheduler_.push(key, std::move(t));
}

void engine_t::impl::partition_done(partition_work_t& w, const std::array<uint8_t, groth16::proof_size>& proof) {
  const auto job = w.job;
  bool complete = false;
  {
    std::lock_guard lk(jobs_mu_);
    if (job->status != job_status_t::unknown) return;
    job->proofs[w.index] = proof;
    if (++job->done == job->partitions()) {
      complete = true;
      job->params.reset();  // a retained result must not pin its parameters in the cache
      job->status = job_status_t::completed;
      job->finished = steady_clock::now();
      ++completed_;
      ++completed_by_kind_[job->kind];
      auto& d = durations_[job->kind];
      d.push_back(double(ms_between(job->submitted, job->finished)) / 1000.0);
      if (d.size() > 1000) d.pop_front();
    }
  }
  if (complete) {
    jobs_cv_.notify_all();
    spdlog::info("engine: job {} completed: {} partition(s)", job->id, job->partitions());
  }
}

void engine_t::impl::halt_job(const std::shared_ptr<job_state_t>& job, job_status_t status, const std::string& why) {
  {
    std::lock_guard lk(jobs_mu_);
    if (job->status != job_status_t::unknown) return;
    job->status = status;
    job->params.reset();
    job->error = why;
    job->finished = steady_clock::now();
    job->halted = true;
    if (status == job_status_t::failed) {
      ++failed_;
      ++failed_by_kind_[job->kind];
    } else {
      ++cancelled_;
    }
  }
  jobs_cv_.notify_all();
  if (status == job_status_t::failed) {
    spdlog::warn("engine: job {} failed: {}", job->id, why);
  } else {
    spdlog::info("engine: job {} {}: {}", job->id, job_status_name(status), why);
  }
  drop_queued(job);
}

// Queued partitions of a halted job go at once, and with them their
// reservations; those inside a stage stop at its end.
void engine_t::impl::drop_queued(const std::shared_ptr<job_state_t>& job) {
  auto same = [&](const partition_work_t& w) { return w.job == job; };
  scheduler_.extract_if(same);
  const size_t handed = synth_handoff_.extract_if(same).size();
  if (handed) {
    std::lock_guard lk(slots_mu_);
    synth_idle_ += uint32_t(handed);
  }
  slots_cv_.notify_all();
  gpu_queue_.extract_if(same);
  finalize_queue_.extract_if(same);
  budget_.wake_all();
}

void engine_t::impl::note(partition_work_t& w, const char* stage, steady_clock::time_point start,
                          const std::string& where) {
  const auto end = steady_clock::now();
  const uint64_t ms = ms_between(start, end);
  const auto& job = *w.job;
  spdlog::debug("TIMELINE,{},{},{},partition={},attempt={},ms={}", ms_between(started_, end), stage, job.id, w.index,
                w.attempt, ms);
  std::lock_guard lk(jobs_mu_);
  const std::string_view s(stage);
  if (s == "synthesis") w.job->synthesis_ms += ms;
  if (s == "prove_start") w.job->gpu_ms += ms;
  if (job.want_timeline) {
    w.job->timeline[w.index].push_back({stage, job.ms_since_submit(start), job.ms_since_submit(end), w.attempt, where});
  }
}

// The steps a backend timed inside one stage (the GPU prover's checks,
// compute_h, MSMs), laid end to end from the stage's start, as events
// "<prefix><step>" beside the stage's own.
void engine_t::impl::note_steps(partition_work_t& w, const char* prefix, steady_clock::time_point start,
                                const std::vector<std::pair<std::string, double>>& steps) {
  if (steps.empty() || !w.job->want_timeline) return;
  std::lock_guard lk(jobs_mu_);
  auto& job = *w.job;
  auto at = start;
  for (const auto& [step, ms] : steps) {
    const auto end = at + std::chrono::duration_cast<steady_clock::duration>(std::chrono::duration<double, std::milli>(ms));
    job.timeline[w.index].push_back({prefix + step, job.ms_since_submit(at), job.ms_since_submit(end), w.attempt, ""});
    at = end;
  }
}

void engine_t::impl::set_worker(uint32_t worker, const partition_work_t* w) {
  std::lock_guard lk(workers_mu_);
  auto& s = workers_[worker];
  s.busy = w != nullptr;
  s.job_id = w ? w->job->id : "";
  s.proof_kind = w ? std::string(proof_kind_name(w->job->kind)) : "";
  s.partition = w ? w->index : 0;
}

}  // namespace cuzk::engine
