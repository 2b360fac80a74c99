#include "service/proto_mapping.hpp"

#include <fmt/core.h>

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;

engine::proof_kind_t to_proof_kind(v1::ProofKind kind) {
  switch (kind) {
    case v1::POREP_SEAL_COMMIT: return engine::proof_kind_t::porep_seal_commit;
    case v1::SNAP_DEALS_UPDATE: return engine::proof_kind_t::snap_deals_update;
    case v1::WINDOW_POST_PARTITION: return engine::proof_kind_t::window_post_partition;
    case v1::WINNING_POST: return engine::proof_kind_t::winning_post;
    case v1::CUZK_BUILTIN_CIRCUIT: return engine::proof_kind_t::circuit;
    default:
      throw engine::invalid_request(fmt::format(
          "proof_kind: {} is not a proof kind (1 PoRep, 2 Snap, 3 WindowPoSt, 4 WinningPoSt, 100 built-in circuit)",
          static_cast<int>(kind)));
  }
}

// Like the Rust server: an out-of-range priority is treated as unspecified,
// which the engine turns into the kind's default.
engine::priority_t to_priority(v1::Priority p) {
  int v = static_cast<int>(p);
  return v >= 0 && v <= 4 ? static_cast<engine::priority_t>(v) : engine::priority_t::unspecified;
}

std::vector<uint8_t> to_bytes(const std::string& s) { return {s.begin(), s.end()}; }

// Matches engine's own limit on partitions per request; checked here too so
// the message names the wire field.
constexpr uint32_t max_partitions = 1024;

}  // namespace

engine::job_request_t to_job_request(const v1::SubmitProofRequest& r) {
  engine::job_request_t j;
  j.request_id = r.request_id();
  j.proof_kind = to_proof_kind(r.proof_kind());
  j.priority = to_priority(r.priority());
  j.sector_size = r.sector_size();
  j.registered_proof = r.registered_proof();
  j.vanilla_proof = to_bytes(r.vanilla_proof());
  j.vanilla_proofs.reserve(r.vanilla_proofs_size());
  for (const auto& p : r.vanilla_proofs()) j.vanilla_proofs.push_back(to_bytes(p));
  j.sector_number = r.sector_number();
  j.miner_id = r.miner_id();
  j.randomness = to_bytes(r.randomness());
  j.partition_index = r.partition_index();
  j.comm_r_old = to_bytes(r.comm_r_old());
  j.comm_r_new = to_bytes(r.comm_r_new());
  j.comm_d_new = to_bytes(r.comm_d_new());
  j.circuit = r.circuit();
  j.circuit_size = r.circuit_size();
  j.circuit_input = r.circuit_input_json();
  if (r.partitions() > max_partitions) {
    throw engine::invalid_request(fmt::format("partitions: {} is more than {}", r.partitions(), max_partitions));
  }
  j.partitions = r.partitions() == 0 ? 1 : r.partitions();
  j.timeline = r.timeline();
  if (j.proof_kind != engine::proof_kind_t::circuit && !j.circuit.empty()) {
    throw engine::invalid_request("circuit: set, but proof_kind is not CUZK_BUILTIN_CIRCUIT (100)");
  }
  return j;
}

void fill_await_response(const engine::job_result_t& r, v1::AwaitProofResponse& out) {
  out.set_job_id(r.job_id);
  out.set_status(static_cast<v1::AwaitProofResponse::Status>(static_cast<int>(r.status)));
  out.set_proof(std::string(r.proof.begin(), r.proof.end()));
  out.set_error_message(r.error_message);
  out.set_queue_wait_ms(r.queue_wait_ms);
  out.set_srs_load_ms(r.srs_load_ms);
  out.set_synthesis_ms(r.synthesis_ms);
  out.set_gpu_compute_ms(r.gpu_ms);
  out.set_total_ms(r.total_ms);
  out.set_partitions(r.partitions);
  out.set_retries(r.retries);
}

engine::job_result_t from_await_response(const v1::AwaitProofResponse& a) {
  engine::job_result_t r;
  r.job_id = a.job_id();
  int s = static_cast<int>(a.status());
  r.status = s >= 0 && s <= 4 ? static_cast<engine::job_status_t>(s) : engine::job_status_t::unknown;
  r.proof = to_bytes(a.proof());
  r.error_message = a.error_message();
  r.queue_wait_ms = a.queue_wait_ms();
  r.srs_load_ms = a.srs_load_ms();
  r.synthesis_ms = a.synthesis_ms();
  r.gpu_ms = a.gpu_compute_ms();
  r.total_ms = a.total_ms();
  r.partitions = a.partitions();
  r.retries = a.retries();
  return r;
}

void fill_status_response(const engine::engine_status_t& s, v1::GetStatusResponse& out) {
  for (const auto& w : s.workers) {
    auto* g = out.add_gpus();
    g->set_ordinal(w.device);
    // The device's name (a GPU's, as nvidia-smi shows it) and which worker this row is.
    g->set_name(fmt::format("{} ({} worker {})", w.device_name.empty() ? w.backend : w.device_name, w.backend,
                            w.worker_id));
    g->set_vram_total_bytes(w.memory_total);  // 0 = not known (the CPU backend)
    g->set_vram_free_bytes(w.memory_free);
    g->set_current_job_id(w.busy ? w.job_id : "");
    g->set_current_proof_kind(w.busy ? w.proof_kind : "");
  }
  for (const auto& p : s.loaded_params) {
    auto* srs = out.add_loaded_srs();
    srs->set_circuit_id(p.circuit_id);
    srs->set_tier(v1::SRSStatus::HOT);
    srs->set_size_bytes(p.bytes);
    srs->set_ref_count(p.in_use);
  }
  for (const auto& q : s.queues) {
    auto* row = out.add_queues();
    row->set_proof_kind(q.proof_kind);
    row->set_pending(q.pending);
    row->set_in_progress(q.in_progress);
  }
  out.set_total_proofs_completed(s.completed);
  out.set_total_proofs_failed(s.failed);
  out.set_uptime_seconds(static_cast<uint64_t>(s.uptime_s));
  out.set_queued_jobs(s.queue_depth);
  out.set_total_proofs_cancelled(s.cancelled);
  out.set_memory_budget_bytes(s.budget_total);
  out.set_memory_reserved_bytes(s.budget_reserved);
  out.set_rss_bytes(s.rss_bytes);
  out.set_peak_rss_bytes(s.peak_rss_bytes);
  out.set_process_cpu_seconds(s.process_cpu_seconds);
  out.set_cpu_cores(s.cpu_cores);
  out.set_synthesis_workers(s.synthesis_workers);
  out.set_prove_workers(s.prove_workers);
  auto clamp = [](int64_t v) { return static_cast<uint32_t>(std::max<int64_t>(v, 0)); };
  out.set_partitions_synthesizing(clamp(s.gauges.synthesizing));
  out.set_partitions_queued(clamp(s.gauges.queued));
  out.set_partitions_proving(clamp(s.gauges.on_gpu));
  out.set_partitions_finalizing(clamp(s.gauges.pending_finalize));
}

v1::SubmitProofRequest to_submit_request(const engine::job_request_t& j) {
  v1::SubmitProofRequest r;
  r.set_request_id(j.request_id);
  r.set_proof_kind(static_cast<v1::ProofKind>(static_cast<int>(j.proof_kind)));
  r.set_priority(static_cast<v1::Priority>(static_cast<int>(j.priority)));
  r.set_sector_size(j.sector_size);
  r.set_registered_proof(j.registered_proof);
  r.set_vanilla_proof(std::string(j.vanilla_proof.begin(), j.vanilla_proof.end()));
  for (const auto& p : j.vanilla_proofs) r.add_vanilla_proofs(std::string(p.begin(), p.end()));
  r.set_sector_number(j.sector_number);
  r.set_miner_id(j.miner_id);
  r.set_randomness(std::string(j.randomness.begin(), j.randomness.end()));
  r.set_partition_index(j.partition_index);
  r.set_comm_r_old(std::string(j.comm_r_old.begin(), j.comm_r_old.end()));
  r.set_comm_r_new(std::string(j.comm_r_new.begin(), j.comm_r_new.end()));
  r.set_comm_d_new(std::string(j.comm_d_new.begin(), j.comm_d_new.end()));
  r.set_circuit(j.circuit);
  r.set_circuit_size(j.circuit_size);
  r.set_circuit_input_json(j.circuit_input);
  r.set_partitions(j.partitions);
  r.set_timeline(j.timeline);
  return r;
}

engine::engine_status_t from_status_response(const v1::GetStatusResponse& s) {
  engine::engine_status_t e;
  for (const auto& g : s.gpus()) {
    engine::worker_status_t w;
    w.device = g.ordinal();
    w.backend = g.name();
    w.busy = !g.current_job_id().empty();
    w.job_id = g.current_job_id();
    w.proof_kind = g.current_proof_kind();
    e.workers.push_back(std::move(w));
  }
  for (const auto& p : s.loaded_srs()) {
    e.loaded_params.push_back({.circuit_id = p.circuit_id(), .bytes = p.size_bytes(), .in_use = p.ref_count()});
  }
  for (const auto& q : s.queues()) {
    e.queues.push_back({.proof_kind = q.proof_kind(), .pending = q.pending(), .in_progress = q.in_progress()});
  }
  e.completed = s.total_proofs_completed();
  e.failed = s.total_proofs_failed();
  e.cancelled = s.total_proofs_cancelled();
  e.queue_depth = s.queued_jobs();
  e.uptime_s = static_cast<double>(s.uptime_seconds());
  e.budget_total = s.memory_budget_bytes();
  e.budget_reserved = s.memory_reserved_bytes();
  e.rss_bytes = s.rss_bytes();
  e.peak_rss_bytes = s.peak_rss_bytes();
  e.process_cpu_seconds = s.process_cpu_seconds();
  e.cpu_cores = s.cpu_cores();
  e.synthesis_workers = s.synthesis_workers();
  e.prove_workers = s.prove_workers();
  e.gauges.synthesizing = s.partitions_synthesizing();
  e.gauges.queued = s.partitions_queued();
  e.gauges.on_gpu = s.partitions_proving();
  e.gauges.pending_finalize = s.partitions_finalizing();
  e.gauges.bytes_reserved = static_cast<int64_t>(s.memory_reserved_bytes());
  return e;
}

}  // namespace cuzk::service
