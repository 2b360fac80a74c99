#include "engine/engine.hpp"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <functional>
#include <spdlog/spdlog.h>

#include "circuits/circuit_input.hpp"
#include "circuits/circuit_registry.hpp"
#include "circuits/compiled_for.hpp"
#include "circuits/porep_partition_circuit_t.hpp"
#include "circuits/circuit_model.hpp"
#include "circuits/post_partition_circuit_t.hpp"
#include "circuits/snap_circuit.hpp"
#include "circuits/snap_partition_circuit_t.hpp"
#include "engine/engine_impl.hpp"
#include "engine/job_id.hpp"
#include "engine/priority_t.hpp"
#include "gpu/stream_priority.hpp"
#include "groth16/format_error.hpp"
#include "filecoin/parameter_manifest_t.hpp"
#include "filecoin/porep_input.hpp"
#include "filecoin/post_input.hpp"
#include "filecoin/snap_input.hpp"
#include "filecoin/registered_post_proof_t.hpp"
#include "filecoin/registered_seal_proof_t.hpp"

namespace cuzk::engine {

std::string gib_text(uint64_t bytes) { return fmt::format("{:.3f} GiB", double(bytes) / double(gib)); }

namespace {

constexpr uint32_t max_partitions = 1024;

void check_kind(proof_kind_t kind) {
  switch (kind) {
    case proof_kind_t::circuit:
    case proof_kind_t::porep_seal_commit: return;
    case proof_kind_t::unspecified: throw invalid_request("proof_kind is unspecified (0)");
    case proof_kind_t::window_post_partition:
    case proof_kind_t::winning_post:
    case proof_kind_t::snap_deals_update: return;
  }
  throw invalid_request(fmt::format("proof_kind {} is not a known kind", static_cast<uint32_t>(kind)));
}

// The vanilla proof of a porep_seal_commit request: Curio's envelope, a bare
// C1 output or our vanilla JSON (filecoin/porep_input.hpp), parsed and checked
// element by element before anything is queued: a C2 of a bad vanilla proof
// only yields a proof that fails verification.
porep::vanilla_proof_t checked_vanilla(const job_request_t& r) {
  if (r.vanilla_proof.empty())
    throw invalid_request("vanilla_proof: empty (PoRep needs the C1 output, as Curio's envelope or bare JSON)");
  try {
    // A bincode C1 (supra_seal's) does not name its registered proof; the request does.
    auto in = filecoin::read_porep_input(r.vanilla_proof, r.registered_proof);
    filecoin::check_porep_request(in, {.sector_size = r.sector_size,
                                       .registered_proof = r.registered_proof,
                                       .miner_id = r.miner_id,
                                       .sector_number = r.sector_number});
    return std::move(in.vanilla);
  } catch (const std::invalid_argument& e) {
    throw invalid_request(std::string("vanilla_proof: ") + e.what());
  }
}

struct job_circuits_t {
  std::string id;
  std::vector<std::shared_ptr<const circuits::any_circuit>> circuits;  // one per partition
};

// All partitions of one vanilla proof; the compiled synthesizer is built on
// the first job of each sector size (about a second at 32 GiB) and cached.
job_circuits_t porep_circuits(const job_request_t& r) {
  const auto vanilla = checked_vanilla(r);
  try {
    return {engine_t::porep_circuit_id(vanilla.params.sector_bytes),
            circuits::porep_partition_circuit_t::all_partitions(vanilla)};
  } catch (const std::invalid_argument& e) {
    throw invalid_request(std::string("vanilla_proof: ") + e.what());
  }
}

// One PoSt partition: the request's sector proofs read and checked against
// the challenges its randomness draws (filecoin/post_input.hpp), padded as
// upstream pads a short Window partition. The circuit's public inputs are
// the ones read_post_request derives, which the engine's self-check uses.
job_circuits_t post_circuits(const job_request_t& r) {
  const auto kind =
      r.proof_kind == proof_kind_t::winning_post ? porep::post_kind_t::winning : porep::post_kind_t::window;
  try {
    auto in = filecoin::read_post_request({.kind = kind,
                                           .registered_proof = r.registered_proof,
                                           .vanilla_proofs = r.vanilla_proofs,
                                           .randomness = r.randomness,
                                           .miner_id = r.miner_id,
                                           .partition_index = r.partition_index});
    if (r.sector_size && r.sector_size != in.proof->sector_bytes)
      throw std::invalid_argument(fmt::format("sector_size: the request says {} bytes, but registered_proof {} ({}) "
                                              "is for {} sectors",
                                              r.sector_size, in.proof->id, in.proof->ffi_name(),
                                              filecoin::sector_size_name(in.proof->sector_bytes)));
    auto witness = std::make_shared<const circuits::post_circuit::witness_t>(std::move(in.sectors));
    auto circuit = std::make_shared<const circuits::post_partition_circuit_t>(
        circuits::post_circuit(in.shape, std::move(witness)));
    return {engine_t::post_circuit_id(r.proof_kind, in.proof->sector_bytes), {std::move(circuit)}};
  } catch (const std::invalid_argument& e) {
    throw invalid_request(e.what());
  }
}

// All partitions of a SnapDeals update: each PartitionProof read and checked
// against the challenges comm_r_new draws for it (filecoin/snap_input.hpp);
// one EmptySectorUpdate circuit per partition, on the compiled path
// (circuits/snap_synthesis.hpp).
job_circuits_t snap_circuits(const job_request_t& r) {
  try {
    auto in = filecoin::read_snap_request({.registered_proof = r.registered_proof,
                                           .sector_size = r.sector_size,
                                           .vanilla_proofs = r.vanilla_proofs,
                                           .comm_r_old = r.comm_r_old,
                                           .comm_r_new = r.comm_r_new,
                                           .comm_d_new = r.comm_d_new});
    job_circuits_t out{filecoin::snap_circuit_id(in.proof->sector_bytes), {}};
    for (auto& p : in.partitions) {
      auto witness = std::make_shared<const circuits::snap_witness_t>(std::move(p));
      out.circuits.push_back(std::make_shared<const circuits::snap_partition_circuit_t>(
          circuits::snap_circuit(in.shape, std::move(witness))));
    }
    return out;
  } catch (const std::invalid_argument& e) {
    throw invalid_request(e.what());
  }
}

// One circuit per partition (shared when every partition has the same witness).
std::vector<std::shared_ptr<const circuits::any_circuit>> make_circuits(const job_request_t& r) {
  if (r.circuit.empty()) throw invalid_request("circuit: no circuit name given for proof_kind circuit");
  if (r.partitions == 0 || r.partitions > max_partitions) {
    throw invalid_request(fmt::format("partitions: {} is outside 1..{}", r.partitions, max_partitions));
  }
  std::vector<std::shared_ptr<const circuits::any_circuit>> out;
  try {
    if (r.circuit_input.empty()) {
      out.assign(r.partitions, circuits::make_circuit(r.circuit, r.circuit_size));
      return out;
    }
    auto input = nlohmann::json::parse(r.circuit_input);
    if (!input.is_array()) {
      out.assign(r.partitions, circuits::make_circuit_with_input(r.circuit, r.circuit_size, input));
      return out;
    }
    if (input.empty() || input.size() > max_partitions) {
      throw invalid_request(fmt::format("circuit_input: an array needs 1..{} witnesses, got {}", max_partitions,
                                        input.size()));
    }
    if (r.partitions != 1 && r.partitions != input.size()) {
      throw invalid_request(fmt::format("partitions {} disagrees with the {} witnesses in circuit_input", r.partitions,
                                        input.size()));
    }
    for (const auto& w : input) out.push_back(circuits::make_circuit_with_input(r.circuit, r.circuit_size, w));
    return out;
  } catch (const nlohmann::json::exception& e) {
    throw invalid_request(std::string("circuit_input: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw invalid_request(e.what());
  }
}

job_circuits_t job_circuits(const job_request_t& r) {
  check_kind(r.proof_kind);
  if (r.proof_kind == proof_kind_t::porep_seal_commit) return porep_circuits(r);
  if (r.proof_kind == proof_kind_t::window_post_partition || r.proof_kind == proof_kind_t::winning_post)
    return post_circuits(r);
  if (r.proof_kind == proof_kind_t::snap_deals_update) return snap_circuits(r);
  return {engine_t::circuit_id_for(r), make_circuits(r)};
}

}  // namespace

engine_t::impl::impl(engine_config_t config, engine_hooks_t hooks)
    : config_(std::move(config)),
      hooks_(std::move(hooks)),
      plan_(plan_budget(config_, hooks_.backend ? hooks_.backend->device_count() : 1)),
      gauges_(hooks_.on_transition),
      budget_(plan_.total, [this](std::string_view ev, uint64_t p, uint64_t r) { gauges_.set_bytes(p, r, ev); },
              plan_.critical_reserve),
      params_(budget_, config_.param_cache, config_.param_subgroup_checks),
      backend_(hooks_.backend ? hooks_.backend : make_cpu_backend()),
      fallback_(hooks_.fallback ? hooks_.fallback : make_cpu_backend()),
      gpu_queue_(plan_.gpu_queue_capacity) {
  spdlog::info("engine: budget {} ({} bytes; {} kept for critical work), {} synthesis workers, {} prove workers (+{} for critical work only) on {} device(s) of backend {}, "
               "GPU queue {} ({} per worker), {} finalizers",
               gib_text(plan_.total), plan_.total, gib_text(plan_.critical_reserve), plan_.synthesis_workers, plan_.prove_workers,
               plan_.critical_workers, plan_.devices.size(),
               backend_->name(), plan_.gpu_queue_capacity, config_.queue_depth_per_worker, plan_.finalizer_threads);
  using compact_t = engine_config_t::compact_t;
  compact_witness_ = config_.compact_witness == compact_t::on ||
                     (config_.compact_witness == compact_t::automatic && backend_->compact_witness());
  if (compact_witness_) spdlog::info("engine: witnesses stay compact until prove_start (0/1 values as bits, rows formed there)");
  params_.set_hooks([this](param_entry_t& e) { ready(e); },
                    [backend = backend_](const groth16::parameters_t& p) { backend->forget(p); });
  if (config_.release_host_params) {
    // Queries the backend holds itself are read from the file straight onto it (issue 18).
    params_.set_stream_hooks(
        [this](const std::string& id, const groth16::parameter_layout_t& l) {
          // Its plan leaves room for sets of higher rank only beside its own claim.
          bool first = false;
          {
            std::lock_guard lk(claimed_mu_);
            first = claimed_.insert(id).second;
          }
          claim_rows(id);
          if (first) backend_->claim_residency(id, uint32_t(circuit_priority(id)), l.bytes_holding(0x1f), nullptr);
          return backend_->device_queries_for(id, l.sizes);
        },
        [this](param_entry_t& e, uint32_t unread, const groth16::parameter_file_t& f, ec::subgroup_check chk) {
          load_to_devices(e, unread, f, chk);
        });
  }
  if (backend_->pools_witness()) {
    auto pool = std::make_unique<r1cs::buffer_pool_t>();
    if (pool->install()) {
      pool_ = std::move(pool);
      budget_.set_reclaimer([this](uint64_t bytes) { budget_.unbank(pool_->evict(bytes)); });
      spdlog::info("engine: witness buffers are kept for later partitions (pool paid from the budget)");
    } else {
      spdlog::warn("engine: another engine in this process pools witness buffers; this one frees them");
    }
  }
  start_threads();
}

engine_t::impl::~impl() { stop(); }

std::shared_ptr<job_state_t> engine_t::impl::make_job(const job_request_t& r) {
  auto [circuit_id, circuits] = job_circuits(r);
  auto job = std::make_shared<job_state_t>();
  job->kind = r.proof_kind;
  job->priority = effective_priority(r.priority, r.proof_kind);
  job->circuits = std::move(circuits);
  job->circuit_id = std::move(circuit_id);
  job->want_timeline = r.timeline;
  // Every partition of a job has the shape of the first: one circuit, one size.
  job->shape = job->circuits.front()->prove_shape();
  // A compact witness (issue 18) costs the backend that forms its rows on the device far less.
  // Its values other than 0 and 1 are bounded by the compiled rows (computed once per circuit shape).
  witness_form_t form;
  form.compact = compact_witness_ && job->circuits.front()->has_compact_witness();
  if (form.compact) form.wide_bound = job->circuits.front()->compact_wide_bound();
  job->footprint = backend_->footprint(job->shape, form);
  job->fallback_footprint = fallback_->footprint(job->shape, form);
  if (!params_.available(job->circuit_id)) {
    throw invalid_request("no parameters for circuit '" + job->circuit_id + "': register them or put them at " +
                          params_.path_for(job->circuit_id));
  }
  const uint64_t params_bytes = params_.bytes_for(job->circuit_id);
  // The backend's footprint decides: the CPU fallback's (eager, 23.8 GiB at
  // 32 GiB PoRep against the CUDA backend's 7.8 for a compact witness) is
  // needed only after every device failed a partition; a fallback that does
  // not fit then fails that job, naming it (engine_stages.cpp, dispatch).
  const auto& most = job->footprint;
  // Parameters stay loaded, so they never use the critical reserve; a
  // critical partition may, a general one must leave it free.
  using share_t = memory_budget_t::share_t;
  const uint64_t general = budget_.limit(share_t::general);
  const uint64_t room = job->priority == priority_t::critical ? budget_.limit(share_t::critical) : general;
  if (params_bytes > general || partitions_in_flight(room, params_bytes, most) == 0) {
    const std::string reserve =
        plan_.critical_reserve == 0
            ? ""
            : fmt::format(" ({} of it kept for critical work: [memory] critical_reserve)", gib_text(plan_.critical_reserve));
    throw never_fits(fmt::format("circuit '{}' can never fit the memory budget: one partition needs {} "
                                 "(domain 2^{}, {} working + {} pending) and its parameters {} more; budget {}{}",
                                 job->circuit_id, gib_text(most.full()), std::countr_zero(most.domain),
                                 gib_text(most.working), gib_text(most.pending), gib_text(params_bytes),
                                 gib_text(plan_.total), reserve));
  }
  job->proofs.resize(job->partitions());
  if (job->want_timeline) job->timeline.resize(job->partitions());
  return job;
}

namespace {

// Hash of every field that decides the proof bytes (not priority or
// timeline). It guards against a caller's mistake, not an adversary: anyone
// who may submit can burn the GPUs anyway. A 51 MB PoRep vanilla proof hashes
// in a few ms, far less than parsing it.
uint64_t request_digest(const job_request_t& r) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  auto mix = [&](uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  auto text = [&](std::string_view s) {
    mix(s.size());
    mix(std::hash<std::string_view>{}(s));
  };
  auto bytes = [&](const std::vector<uint8_t>& v) { text({reinterpret_cast<const char*>(v.data()), v.size()}); };
  mix(uint64_t(r.proof_kind));
  mix(r.sector_size);
  mix(r.registered_proof);
  bytes(r.vanilla_proof);
  mix(r.vanilla_proofs.size());
  for (const auto& v : r.vanilla_proofs) bytes(v);
  mix(r.sector_number);
  mix(r.miner_id);
  bytes(r.randomness);
  mix(r.partition_index);
  bytes(r.comm_r_old);
  bytes(r.comm_r_new);
  bytes(r.comm_d_new);
  text(r.circuit);
  mix(r.circuit_size);
  text(r.circuit_input);
  mix(r.partitions);
  return h;
}

}  // namespace

submit_result_t engine_t::impl::submit(job_request_t request) {
  const std::string& rid = request.request_id;
  const uint64_t digest = rid.empty() ? 0 : request_digest(request);
  // What a request_id already in the table means. Curio retries a task with
  // the same request_id, and its client deadline may end a Prove call while
  // the job runs (CUZK_API.md 2.5), so:
  //  - a job still running with the same request: attach (no second job);
  //  - a job completed within retention with the same request: its result;
  //  - the same request_id for a different request while that job runs:
  //    refused (attaching would hand the caller a proof of other inputs);
  //  - a failed or cancelled job, or a completed one for a different request:
  //    a new attempt. The old entry is kept under another key until its
  //    retention ends, so drain() still waits for its last partitions.
  // supersede: move an ended job's entry aside for the new one. Only after
  // the new request parsed (the second call): a refused request must not cost
  // a retry of the good one its stored result.
  auto attach_locked = [&](bool supersede) -> std::optional<submit_result_t> {
    auto it = jobs_.find(rid);
    if (it == jobs_.end()) return std::nullopt;
    const auto old = it->second;
    const bool same = old->request_digest == digest;
    if (old->status == job_status_t::unknown) {
      if (!same) {
        throw invalid_request(fmt::format(
            "request_id '{}' names a job still running for a different request ({}); wait for it to finish or "
            "use another request_id",
            rid,
            old->kind != request.proof_kind
                ? fmt::format("proof kind {} there, {} here", proof_kind_name(old->kind),
                              proof_kind_name(request.proof_kind))
                : std::string("same proof kind, different payload")));
      }
      submit_result_t out{old->id, 0, true};
      if (!old->started) {
        for (const auto& [id, j] : jobs_) {
          if (!j->started && j->status == job_status_t::unknown && j->seq < old->seq) ++out.queue_position;
        }
      }
      spdlog::info("engine: request_id {} attached to its running job (queue position {})", rid, out.queue_position);
      return out;
    }
    if (old->status == job_status_t::completed && same) {
      spdlog::info("engine: request_id {} resubmitted after completion: the retained result is returned", rid);
      return submit_result_t{old->id, 0, true};
    }
    if (!supersede) return std::nullopt;
    if (same) {
      spdlog::info("engine: request_id {} resubmitted after it {}: starting a new attempt", rid,
                   job_status_name(old->status));
    } else {
      spdlog::warn("engine: request_id {} resubmitted for a different request after it {}: starting a new job; "
                   "the old result is no longer returned for this id",
                   rid, job_status_name(old->status));
    }
    auto node = jobs_.extract(it);
    node.key() = fmt::format("{}\n(superseded, seq {})", rid, old->seq);
    jobs_.insert(std::move(node));
    return std::nullopt;
  };
  if (!rid.empty()) {
    // Before make_job: a retry of a 51 MB PoRep request is not parsed again.
    std::lock_guard lk(jobs_mu_);
    purge_expired_locked();
    if (auto a = attach_locked(false)) return *a;
  }
  auto job = make_job(request);
  job->request_digest = digest;
  submit_result_t out;
  {
    std::lock_guard lk(jobs_mu_);
    if (!rid.empty()) {
      // Another call with this request_id may have won the race since the check above.
      if (auto a = attach_locked(true)) return *a;
    }
    if (!accepting_) throw engine_stopped("the engine is draining or stopped; no new jobs");
    purge_expired_locked();
    job->id = rid.empty() ? make_job_id() : rid;
    job->seq = next_seq_++;
    job->submitted = steady_clock::now();
    for (const auto& [id, j] : jobs_) {
      if (!j->started && j->status == job_status_t::unknown) ++out.queue_position;
    }
    jobs_.emplace(job->id, job);
    // Pinned from here on, so no eviction takes them before the job runs. If
    // they are not loaded yet, the loader pins them: it looks at jobs_ after
    // publishing them, so it sees this job (load_params).
    job->params = params_.loaded(job->circuit_id);
  }
  if (!job->params) request_load(job->circuit_id);
  out.job_id = job->id;
  spdlog::info("engine: job {} accepted: {} x{} partition(s), priority {}, {} per partition, queue position {}",
               job->id, job->circuit_id, job->partitions(), static_cast<uint32_t>(job->priority),
               gib_text(job->footprint.full()), out.queue_position);
  for (uint32_t i = 0; i < job->partitions(); ++i) {
    auto t = ticket(job, i);
    const auto key = t.key();
    scheduler_.push(key, std::move(t));
  }
  // A partition waiting for bytes gives way to these if they are more urgent.
  budget_.wake_all();
  return out;
}

std::shared_ptr<job_state_t> engine_t::impl::find_job(const std::string& id) const {
  std::lock_guard lk(jobs_mu_);
  auto it = jobs_.find(id);
  if (it == jobs_.end()) throw unknown_job("unknown job '" + id + "' (never submitted, or its result expired)");
  return it->second;
}

job_result_t engine_t::impl::result_locked(const job_state_t& job) const {
  job_result_t r;
  r.job_id = job.id;
  r.status = job.status;
  r.error_message = job.error;
  r.partitions = job.partitions();
  r.retries = job.retries;
  if (job.status != job_status_t::completed) return r;
  r.proof.reserve(groth16::proof_size * job.partitions());
  for (const auto& p : job.proofs) r.proof.insert(r.proof.end(), p->begin(), p->end());
  r.total_ms = job.ms_since_submit(job.finished);
  r.queue_wait_ms = job.first_synthesis ? job.ms_since_submit(*job.first_synthesis) : 0;
  r.synthesis_ms = job.synthesis_ms;
  r.gpu_ms = job.gpu_ms;
  r.srs_load_ms = job.srs_load_ms;
  return r;
}

job_result_t engine_t::impl::await(const std::string& id, std::optional<std::chrono::milliseconds> timeout) {
  auto job = find_job(id);
  std::unique_lock lk(jobs_mu_);
  auto finished = [&] { return job->status != job_status_t::unknown; };
  if (!timeout) {
    jobs_cv_.wait(lk, finished);
  } else if (!jobs_cv_.wait_for(lk, *timeout, finished)) {
    job_result_t r;
    r.job_id = id;
    r.status = job_status_t::timeout;
    r.error_message = fmt::format("not finished after {} ms; the job keeps running", timeout->count());
    r.partitions = job->partitions();
    return r;
  }
  return result_locked(*job);
}

bool engine_t::impl::cancel(const std::string& id) {
  auto job = find_job(id);
  bool was_running;
  {
    std::lock_guard lk(jobs_mu_);
    if (job->status != job_status_t::unknown) return false;
    was_running = job->started;
  }
  halt_job(job, job_status_t::cancelled, "cancelled by request");
  return was_running;
}

void engine_t::impl::purge_expired_locked() {
  const auto now = steady_clock::now();
  const auto keep = std::chrono::seconds(config_.result_retention_s);
  std::erase_if(jobs_, [&](const auto& kv) {
    const auto& j = *kv.second;
    return j.status != job_status_t::unknown && j.live == 0 && now - j.finished > keep;
  });
}

void engine_t::impl::announce(const std::string& circuit_id) {
  if (!params_.available(circuit_id)) return;
  {
    std::lock_guard lk(claimed_mu_);
    claimed_.insert(circuit_id);
  }
  backend_->claim_residency(circuit_id, uint32_t(circuit_priority(circuit_id)), params_.set_bytes_for(circuit_id),
                            nullptr);
}

void engine_t::impl::claim_rows(const std::string& circuit_id) {
  // Only where rows are formed on the device, for circuits with compiled rows (the official ones).
  if (!compact_witness_ || !backend_->compact_witness()) return;
  const auto c = filecoin::official_circuit_of_id(circuit_id);
  if (!c) return;
  {
    std::lock_guard lk(claimed_mu_);
    if (!rows_claimed_.insert(circuit_id).second) return;
  }
  uint64_t bytes = 0;
  try {
    bytes = circuits::compiled_for(c->kind, c->sector_bytes)->view().planned_device_bytes();
  } catch (const std::exception& e) {
    spdlog::warn("engine: '{}': no compiled rows to plan on the devices ({})", circuit_id, e.what());
    return;
  }
  backend_->claim_rows(circuit_id, bytes);
  spdlog::info("engine: '{}' compiled rows, {} on each device that forms its witnesses' rows, planned with its "
               "parameters",
               circuit_id, gib_text(bytes));
}

void engine_t::impl::prepare(const std::string& circuit_id, const groth16::parameters_t& params) {
  const auto t0 = steady_clock::now();
  try {
    claim_rows(circuit_id);
    backend_->claim_residency(circuit_id, uint32_t(circuit_priority(circuit_id)), params.bytes(), &params);
    backend_->prepare(params);
    spdlog::info("engine: parameters '{}' ready on backend {} in {} ms", circuit_id, backend_->name(),
                 std::chrono::duration_cast<std::chrono::milliseconds>(steady_clock::now() - t0).count());
  } catch (const std::exception& e) {
    spdlog::warn("engine: could not prepare parameters '{}' on backend {}: {}", circuit_id, backend_->name(), e.what());
  }
}

void engine_t::impl::load_to_devices(param_entry_t& e, uint32_t unread, const groth16::parameter_file_t& file,
                                     ec::subgroup_check chk) {
  // As ready(): a WinningPoSt's provers keep the streams made now, at the greatest priority.
  gpu::scoped_stream_priority priority(e.circuit_id.starts_with("winning-"));
  const auto t0 = steady_clock::now();
  claim_rows(e.circuit_id);
  backend_->claim_residency(e.circuit_id, uint32_t(circuit_priority(e.circuit_id)), e.full_bytes, e.params.get());
  backend_->prepare_from_file(*e.params, unread, file, chk);
  spdlog::info("engine: parameters '{}' ready on backend {} in {} ms, {} of them read from the file onto the devices "
               "only",
               e.circuit_id, backend_->name(),
               std::chrono::duration_cast<std::chrono::milliseconds>(steady_clock::now() - t0).count(),
               gib_text(e.host_released));
}

void engine_t::impl::ready(param_entry_t& e) {
  {
    // A WinningPoSt circuit's provers keep the streams made now for their
    // MSMs: the greatest priority, whichever thread loads it (a preload too).
    gpu::scoped_stream_priority priority(e.circuit_id.starts_with("winning-"));
    prepare(e.circuit_id, *e.params);
  }
  if (!config_.release_host_params || !e.releasable) return;
  const uint64_t before = e.params->bytes();
  try {
    e.host_released = backend_->release_host_copy(*e.releasable);
  } catch (const std::exception& err) {
    spdlog::warn("engine: parameters '{}' keep their host copy: {}", e.circuit_id, err.what());
    return;
  }
  if (e.host_released) {
    spdlog::info("engine: parameters '{}': host copy of the device-resident queries released ({} of {}; the budget "
                 "still holds {} for a CPU fallback reload)",
                 e.circuit_id, gib_text(e.host_released), gib_text(before), gib_text(e.bytes));
  }
}

void engine_t::impl::drain() {
  std::unique_lock lk(jobs_mu_);
  accepting_ = false;
  jobs_cv_.wait(lk, [&] {
    for (const auto& [id, j] : jobs_) {
      if (j->status == job_status_t::unknown || j->live != 0) return false;
    }
    return true;
  });
}

void engine_t::impl::stop() {
  std::lock_guard lk(stop_mu_);
  if (stopped_) return;
  drain();
  stopping_ = true;
  scheduler_.close();
  synth_handoff_.close();
  gpu_queue_.close();
  finalize_queue_.close();
  {
    std::lock_guard s(slots_mu_);
  }
  slots_cv_.notify_all();
  budget_.wake_all();
  threads_.clear();  // joins
  std::map<std::string, param_load_t> loads;
  {
    std::lock_guard l(loads_mu_);  // after stopping_: request_load starts no more
    loads.swap(loads_);
  }
  loads.clear();  // joins the loaders (a load waiting for bytes gave up at wake_all)
  if (pool_) {
    pool_->uninstall();
    budget_.unbank(pool_->evict(UINT64_MAX));
  }
  stopped_ = true;
  spdlog::info("engine: stopped");
}

// ---- engine_t ----

engine_t::engine_t(engine_config_t config, engine_hooks_t hooks)
    : impl_(std::make_unique<impl>(std::move(config), std::move(hooks))) {}
engine_t::~engine_t() = default;

submit_result_t engine_t::submit(job_request_t request) { return impl_->submit(std::move(request)); }
job_result_t engine_t::await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout) {
  return impl_->await(job_id, timeout);
}
job_result_t engine_t::prove(job_request_t request) { return await(submit(std::move(request)).job_id); }
bool engine_t::cancel(const std::string& job_id) { return impl_->cancel(job_id); }
engine_status_t engine_t::status() const { return impl_->status(); }
std::string engine_t::metrics_text() const { return impl_->metrics_text(); }
std::string engine_t::timeline_json(const std::string& job_id) const { return impl_->timeline_json(job_id); }
void engine_t::drain() { impl_->drain(); }
void engine_t::stop() { impl_->stop(); }

void engine_t::register_parameters(const std::string& circuit_id, std::shared_ptr<const groth16::parameters_t> params) {
  impl_->params_.add(circuit_id, params, [] { return false; });
  impl_->prepare(circuit_id, *params);
}

void engine_t::register_parameters(const std::string& circuit_id, std::shared_ptr<groth16::parameters_t> params,
                                   std::function<groth16::parameters_t()> reload) {
  impl_->params_.add_releasable(circuit_id, std::move(params), std::move(reload), [] { return false; });
}

std::vector<std::pair<std::string, preload_result_t>> engine_t::preload_all(const std::vector<std::string>& circuit_ids) {
  for (const auto& id : circuit_ids) impl_->announce(id);
  std::vector<std::string> order = circuit_ids;
  std::ranges::stable_sort(order, std::ranges::greater{}, [](const std::string& id) { return circuit_priority(id); });
  std::vector<std::pair<std::string, preload_result_t>> out;
  for (const auto& id : order) out.emplace_back(id, preload(id));
  return out;
}

preload_result_t engine_t::preload(const std::string& circuit_id) {
  if (!impl_->params_.available(circuit_id)) {
    throw invalid_request("unknown circuit id '" + circuit_id + "': no parameters at " +
                          impl_->params_.path_for(circuit_id));
  }
  bool loaded = false;
  std::shared_ptr<param_entry_t> e;
  try {
    e = impl_->params_.acquire(circuit_id, [] { return false; }, &loaded);
  } catch (const groth16::format_error& err) {
    throw invalid_request(err.what());
  }
  // Loading prepared the backend (param_store_t's ready hook).
  preload_result_t out;
  out.already_loaded = !loaded;
  out.load_time_ms = loaded ? e->load_ms : 0;
  if (const auto c = filecoin::official_circuit_of_id(circuit_id)) {
    const auto t0 = steady_clock::now();
    out.wide_bound = circuits::compiled_for(c->kind, c->sector_bytes)->wide_aux_bound();
    out.compile_ms = uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(steady_clock::now() - t0).count());
    spdlog::info("engine: '{}' compiled rows ready ({} ms; at most {} aux values other than 0 and 1)", circuit_id,
                 out.compile_ms, *out.wide_bound);
  }
  return out;
}

evict_result_t engine_t::evict(const std::string& circuit_id) {
  auto [was, bytes] = impl_->params_.evict(circuit_id);
  if (was) impl_->evicted(circuit_id);
  return {was, bytes};
}

void engine_t::impl::evicted(const std::string& circuit_id) {
  // A running job keeps its entry (job->params), but the scheduler looks
  // for parameters in the store: without a new load its queued partitions
  // would wait for ever.
  bool wanted = false;
  {
    std::lock_guard lk(jobs_mu_);
    for (const auto& [id, j] : jobs_) wanted |= j->circuit_id == circuit_id && j->status == job_status_t::unknown;
  }
  if (wanted) request_load(circuit_id);
}

partition_footprint_t engine_t::partition_footprint_for(const job_request_t& r) {
  return partition_footprint(job_circuits(r).circuits.front()->prove_shape());
}

const budget_plan_t& engine_t::plan() const { return impl_->plan_; }

std::string engine_t::porep_circuit_id(uint64_t sector_bytes) {
  constexpr uint64_t kib = 1024, mib = kib * 1024;
  if (sector_bytes % gib == 0) return fmt::format("porep-{}g", sector_bytes / gib);
  if (sector_bytes % mib == 0) return fmt::format("porep-{}m", sector_bytes / mib);
  if (sector_bytes % kib == 0) return fmt::format("porep-{}k", sector_bytes / kib);
  return fmt::format("porep-{}", sector_bytes);
}

std::string engine_t::post_circuit_id(proof_kind_t kind, uint64_t sector_bytes) {
  if (kind != proof_kind_t::window_post_partition && kind != proof_kind_t::winning_post)
    throw std::invalid_argument(fmt::format("post_circuit_id: {} is not a PoSt kind", proof_kind_name(kind)));
  return filecoin::post_circuit_id(kind == proof_kind_t::winning_post ? filecoin::parameter_kind_t::winning_post
                                                                      : filecoin::parameter_kind_t::window_post,
                                   sector_bytes);
}

std::string engine_t::circuit_id_for(const job_request_t& r) {
  switch (r.proof_kind) {
    case proof_kind_t::circuit:
      if (r.circuit == "tiny") return "tiny";
      if (r.circuit == "hash-chain") {
        return "hash-chain-" + std::to_string(r.circuit_size ? r.circuit_size : circuits::default_hash_chain_size);
      }
      return r.circuit_size ? r.circuit + "-" + std::to_string(r.circuit_size) : r.circuit;
    case proof_kind_t::porep_seal_commit: return porep_circuit_id(r.sector_size ? r.sector_size : 32 * gib);
    case proof_kind_t::snap_deals_update: {
      // The registered proof fixes the size (0 reads as StackedDrg2KiBV1, proto3's unset).
      const auto& proofs = filecoin::registered_update_proofs();
      return filecoin::snap_circuit_id(r.registered_proof < proofs.size() ? proofs[r.registered_proof].sector_bytes
                                                                            : 32 * gib);
    }
    case proof_kind_t::window_post_partition:
    case proof_kind_t::winning_post: {
      // The registered proof fixes the size (0 reads as StackedDrgWinning2KiBV1, proto3's unset).
      const auto& proofs = filecoin::registered_post_proofs();
      const uint64_t size = r.registered_proof < proofs.size() ? proofs[r.registered_proof].sector_bytes : 32 * gib;
      return post_circuit_id(r.proof_kind, size);
    }
    case proof_kind_t::unspecified: break;
  }
  return "";
}

}  // namespace cuzk::engine
