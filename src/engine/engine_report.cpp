// What the engine tells the outside: status snapshot, Prometheus text
// (CUZK_API.md 5.1 names, plus our gauges and budget), per-job timeline JSON.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "engine/engine_impl.hpp"
#include "engine/process_memory_t.hpp"

namespace cuzk::engine {

engine_status_t engine_t::impl::status() const {
  engine_status_t s;
  {
    std::lock_guard lk(workers_mu_);
    s.workers = workers_;
  }
  // Outside the lock: a GPU query takes a driver call per worker.
  for (auto& w : s.workers) {
    const prove_backend_t& b = w.backend == backend_->name() ? *backend_ : *fallback_;
    try {
      const gpu::device_info_t d = b.describe(w.device);
      w.device_name = d.name;
      w.memory_total = d.memory_total;
      w.memory_free = d.memory_free;
    } catch (const std::exception&) {
      w.device_name = b.name();  // a status report never fails on a device query
    }
  }
  s.loaded_params = params_.list();
  {
    std::lock_guard lk(jobs_mu_);
    std::map<proof_kind_t, queue_status_t> q;
    for (const auto& [id, j] : jobs_) {
      if (j->status != job_status_t::unknown) continue;
      auto& row = q[j->kind];
      row.proof_kind = std::string(proof_kind_name(j->kind));
      if (j->started) {
        ++row.in_progress;
      } else {
        ++row.pending;
        ++s.queue_depth;
      }
    }
    for (auto& [k, row] : q) s.queues.push_back(row);
    s.completed = completed_;
    s.failed = failed_;
    s.cancelled = cancelled_;
  }
  s.uptime_s = std::chrono::duration<double>(steady_clock::now() - started_).count();
  s.budget_total = budget_.total();
  s.budget_reserved = budget_.reserved();
  s.budget_critical_reserve = plan_.critical_reserve;
  s.witness_pool_bytes = budget_.pooled_bytes();
  s.witness_pool_hits = pool_ ? pool_->hits() : 0;
  s.gauges = gauges_.snapshot();
  const auto mem = read_process_memory();
  s.peak_rss_bytes = mem.peak_rss_bytes;
  s.rss_bytes = mem.rss_bytes;
  s.process_cpu_seconds = read_process_cpu_seconds();
  s.cpu_cores = usable_cpu_cores();
  s.synthesis_workers = plan_.synthesis_workers;
  s.prove_workers = plan_.prove_workers;
  s.gpu_queue_capacity = plan_.gpu_queue_capacity;
  s.gpu_queue_depth = uint32_t(gpu_queue_.size());
  s.gpu_queue_peak = uint32_t(gpu_queue_.peak());
  return s;
}

std::string engine_t::impl::metrics_text() const {
  const auto s = status();
  std::string out;
  auto metric = [&](const char* name, const char* type, const char* help) {
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  };
  metric("cuzk_proofs_completed_total", "counter", "Proofs completed");
  out += fmt::format("cuzk_proofs_completed_total {}\n", s.completed);
  metric("cuzk_proofs_failed_total", "counter", "Proofs failed");
  out += fmt::format("cuzk_proofs_failed_total {}\n", s.failed);
  metric("cuzk_proofs_cancelled_total", "counter", "Proofs cancelled");
  out += fmt::format("cuzk_proofs_cancelled_total {}\n", s.cancelled);
  metric("cuzk_uptime_seconds", "gauge", "Seconds since the engine started");
  out += fmt::format("cuzk_uptime_seconds {:.3f}\n", s.uptime_s);
  metric("cuzk_queue_depth", "gauge", "Jobs waiting in the scheduler");
  out += fmt::format("cuzk_queue_depth {}\n", s.queue_depth);
  {
    std::lock_guard lk(jobs_mu_);
    metric("cuzk_proofs_completed", "counter", "Proofs completed by kind");
    for (const auto& [k, n] : completed_by_kind_) {
      out += fmt::format("cuzk_proofs_completed{{proof_kind=\"{}\"}} {}\n", proof_kind_metric_label(k), n);
    }
    metric("cuzk_proofs_failed", "counter", "Proofs failed by kind");
    for (const auto& [k, n] : failed_by_kind_) {
      out += fmt::format("cuzk_proofs_failed{{proof_kind=\"{}\"}} {}\n", proof_kind_metric_label(k), n);
    }
    metric("cuzk_proof_duration_seconds", "summary", "Submit-to-completion time over the last 1000 proofs per kind");
    for (const auto& [k, d] : durations_) {
      double sum = 0;
      for (double v : d) sum += v;
      const auto label = proof_kind_metric_label(k);
      out += fmt::format("cuzk_proof_duration_seconds_count{{proof_kind=\"{}\"}} {}\n", label, d.size());
      out += fmt::format("cuzk_proof_duration_seconds_sum{{proof_kind=\"{}\"}} {:.6f}\n", label, sum);
    }
  }
  uint32_t running = 0;
  for (const auto& w : s.workers) running += w.busy ? 1 : 0;
  metric("cuzk_running_jobs", "gauge", "Prove workers holding a partition");
  out += fmt::format("cuzk_running_jobs {}\n", running);
  metric("cuzk_gpu_workers", "gauge", "Prove workers");
  out += fmt::format("cuzk_gpu_workers {}\n", s.workers.size());
  metric("cuzk_buffers", "gauge", "Partitions per pipeline stage");
  out += fmt::format("cuzk_buffers{{stage=\"synthesizing\"}} {}\n", s.gauges.synthesizing);
  out += fmt::format("cuzk_buffers{{stage=\"queued\"}} {}\n", s.gauges.queued);
  out += fmt::format("cuzk_buffers{{stage=\"on_gpu\"}} {}\n", s.gauges.on_gpu);
  out += fmt::format("cuzk_buffers{{stage=\"pending_finalize\"}} {}\n", s.gauges.pending_finalize);
  metric("cuzk_memory_budget_bytes", "gauge", "Memory budget");
  out += fmt::format("cuzk_memory_budget_bytes {}\n", s.budget_total);
  metric("cuzk_memory_critical_reserve_bytes", "gauge", "Budget kept for critical (WinningPoSt) partitions only");
  out += fmt::format("cuzk_memory_critical_reserve_bytes {}\n", s.budget_critical_reserve);
  metric("cuzk_memory_reserved_bytes", "gauge", "Budget reserved, by holder");
  out += fmt::format("cuzk_memory_reserved_bytes{{holder=\"partitions\"}} {}\n", s.gauges.bytes_reserved);
  out += fmt::format("cuzk_memory_reserved_bytes{{holder=\"parameters\"}} {}\n", s.gauges.params_bytes);
  metric("cuzk_witness_pool_bytes", "gauge", "Witness buffers kept for later partitions (within partitions' bytes)");
  out += fmt::format("cuzk_witness_pool_bytes {}\n", s.witness_pool_bytes);
  metric("cuzk_witness_pool_hits_total", "counter", "Witness buffers synthesis took back from the pool");
  out += fmt::format("cuzk_witness_pool_hits_total {}\n", s.witness_pool_hits);
  metric("cuzk_peak_rss_bytes", "gauge", "Peak resident set (VmHWM)");
  out += fmt::format("cuzk_peak_rss_bytes {}\n", s.peak_rss_bytes);
  metric("cuzk_rss_bytes", "gauge", "Resident set (VmRSS)");
  out += fmt::format("cuzk_rss_bytes {}\n", s.rss_bytes);
  metric("cuzk_process_cpu_seconds_total", "counter", "CPU time of the process, user + system, every thread");
  out += fmt::format("cuzk_process_cpu_seconds_total {:.3f}\n", s.process_cpu_seconds);
  metric("cuzk_cpu_cores", "gauge", "Cores the process may run on (affinity)");
  out += fmt::format("cuzk_cpu_cores {}\n", s.cpu_cores);
  return out;
}

std::string engine_t::impl::timeline_json(const std::string& job_id) const {
  auto job = find_job(job_id);
  nlohmann::json j;
  j["job_id"] = job->id;
  std::lock_guard lk(jobs_mu_);
  j["recorded"] = job->want_timeline;
  j["status"] = std::string(job_status_name(job->status));
  auto parts = nlohmann::json::array();
  for (size_t i = 0; i < job->timeline.size(); ++i) {
    auto events = nlohmann::json::array();
    uint32_t attempts = 0;
    for (const auto& e : job->timeline[i]) {
      events.push_back({{"stage", e.stage}, {"start_ms", e.start_ms}, {"end_ms", e.end_ms}, {"attempt", e.attempt},
                        {"where", e.where}});
      attempts = std::max(attempts, e.attempt + 1);
    }
    parts.push_back({{"index", i}, {"attempts", attempts}, {"events", events}});
  }
  j["partitions"] = parts;
  return j.dump();
}

}  // namespace cuzk::engine
