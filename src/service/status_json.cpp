#include "service/status_json.hpp"

#include <map>

namespace cuzk::service {

nlohmann::json status_json(const engine::engine_status_t& s) {
  using nlohmann::json;
  json j;
  j["uptime_secs"] = s.uptime_s;
  j["memory"] = {{"total_bytes", s.budget_total},
                 {"used_bytes", s.budget_reserved},
                 {"available_bytes", s.budget_total > s.budget_reserved ? s.budget_total - s.budget_reserved : 0},
                 {"critical_reserve_bytes", s.budget_critical_reserve}};
  // max_concurrent: the Rust daemon's budget / 9 GiB; here the synthesis
  // workers are the limit (the budget then decides how many actually run).
  j["synthesis"] = {{"max_concurrent", s.synthesis_workers}, {"active", s.gauges.synthesizing}};

  // The snapshot names a job only where a prove worker holds one of its
  // partitions, so a pipeline lists those partitions (state "gpu"); jobs
  // still synthesizing or queued are counted in `counters` and `buffers`.
  std::map<std::string, json> pipelines;
  auto workers = json::array();
  for (const auto& w : s.workers) {
    json row = {{"worker_id", w.worker_id}, {"gpu_ordinal", w.device}, {"state", w.busy ? "proving" : "idle"},
                {"backend", w.backend}};
    if (w.busy) {
      row["current_job"] = w.job_id;
      row["current_partition"] = w.partition;
      auto& p = pipelines[w.job_id];
      if (p.is_null()) p = {{"job_id", w.job_id}, {"proof_kind", w.proof_kind}, {"partitions", json::array()}};
      p["partitions"].push_back({{"index", w.partition}, {"state", "gpu"}});
    }
    workers.push_back(std::move(row));
  }
  j["gpu_workers"] = std::move(workers);
  auto list = json::array();
  for (auto& [id, p] : pipelines) list.push_back(std::move(p));
  j["pipelines"] = std::move(list);

  auto srs = json::array();
  for (const auto& p : s.loaded_params) {
    srs.push_back({{"circuit_id", p.circuit_id},
                   {"bytes", p.bytes},
                   {"host_released_bytes", p.host_released},
                   {"last_used_secs_ago", p.idle_s},
                   {"evictable", p.in_use == 0}});
  }
  j["allocations"] = {{"srs", std::move(srs)}, {"pce", json::array()}};  // no PCE cache in cuzk

  json pending = json::object(), in_progress = json::object();
  for (const auto& q : s.queues) {
    pending[q.proof_kind] = q.pending;
    in_progress[q.proof_kind] = q.in_progress;
  }
  j["counters"] = {{"total_completed", s.completed},
                   {"total_failed", s.failed},
                   {"total_cancelled", s.cancelled},
                   {"queue_depth", s.queue_depth},
                   {"pending_by_kind", std::move(pending)},
                   {"in_progress_by_kind", std::move(in_progress)}};
  // Rust names: a/b/c buffers alive (synthesized, not yet consumed by
  // prove_start), aux kept until finalize, pending proof handles.
  j["buffers"] = {{"synth_in_flight", s.gauges.synthesizing},
                  {"provers_in_flight", s.gauges.queued + s.gauges.on_gpu},
                  {"aux_in_flight", s.gauges.queued + s.gauges.on_gpu + s.gauges.pending_finalize},
                  {"shells_in_flight", 0},
                  {"pending_handles", s.gauges.pending_finalize}};
  j["rss_bytes"] = s.rss_bytes;
  j["peak_rss_bytes"] = s.peak_rss_bytes;
  j["process_cpu_seconds"] = s.process_cpu_seconds;
  j["cpu_cores"] = s.cpu_cores;
  j["gpu_queue"] = {{"depth", s.gpu_queue_depth}, {"capacity", s.gpu_queue_capacity}, {"peak", s.gpu_queue_peak}};
  return j;
}

}  // namespace cuzk::service
