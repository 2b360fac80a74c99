#include "service/bench_runner.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <map>
#include <numeric>
#include <mutex>
#include <stop_token>
#include <thread>

#include "service/config_values.hpp"
#include "service/rpc_error.hpp"

namespace cuzk::service {
namespace {

using steady = std::chrono::steady_clock;

double ms_since(steady::time_point t0) {
  return std::chrono::duration<double, std::milli>(steady::now() - t0).count();
}

engine::job_request_t bench_request(const bench_options_t& o) {
  engine::job_request_t r;
  r.timeline = o.timeline;
  if (o.vanilla_proof) {
    r.proof_kind = engine::proof_kind_t::porep_seal_commit;
    r.sector_size = o.size;
    r.vanilla_proof = *o.vanilla_proof;
    r.registered_proof = o.registered_proof;
    r.miner_id = o.miner_id;
    r.sector_number = o.sector_number;
    return r;
  }
  r.proof_kind = engine::proof_kind_t::circuit;
  r.circuit = o.circuit;
  r.circuit_size = o.size;
  r.partitions = o.partitions;
  r.timeline = o.timeline;
  return r;
}

// Whether an error says the request itself is wrong: then every proof of the
// run would fail the same way, so the run stops and the error is rethrown.
bool request_rejected(const std::exception& e) {
  if (const auto* rpc = dynamic_cast<const rpc_error*>(&e)) return rpc->is_caller_error();
  return dynamic_cast<const engine::invalid_request*>(&e) != nullptr ||
         dynamic_cast<const engine::never_fits*>(&e) != nullptr;
}

// One proof: submit, wait, and (if asked) fetch its timeline. Any other
// failure (a lost connection, a stopped engine) is recorded as a failed
// proof, so one bad job does not hide the measurements of the others.
bench_proof_t run_one(proving_target_t& target, const bench_options_t& o, steady::time_point t0) {
  bench_proof_t p;
  p.submit_ms = ms_since(t0);
  try {
    p.job_id = target.submit(bench_request(o)).job_id;
    p.result = target.await(p.job_id);
    if (o.timeline) p.timeline_json = target.timeline_json(p.job_id);
  } catch (const std::exception& e) {
    if (request_rejected(e)) throw;
    p.result.job_id = p.job_id;
    p.result.status = engine::job_status_t::failed;
    p.result.error_message = e.what();
  }
  p.done_ms = ms_since(t0);
  return p;
}

// Samples RSS and the pipeline gauges until stopped; prints a progress line
// every progress_interval when a stream is given.
void sample_loop(std::stop_token stop, proving_target_t& target, const bench_options_t& o, steady::time_point t0,
                 const std::atomic<uint32_t>& done, std::vector<bench_sample_t>& samples, std::ostream* progress) {
  std::mutex m;
  std::condition_variable_any cv;
  double next_progress = static_cast<double>(o.progress_interval.count());
  while (!stop.stop_requested()) {
    try {
      auto s = target.status();
      samples.push_back({ms_since(t0), s.rss_bytes, s.gauges});
      if (progress != nullptr && samples.back().t_ms >= next_progress) {
        next_progress += static_cast<double>(o.progress_interval.count());
        const auto& g = s.gauges;
        *progress << fmt::format("[{:6.1f} s] {}/{} done | partitions: synthesizing {} queued {} proving {} finalizing {} "
                                 "| rss {}\n",
                                 samples.back().t_ms / 1000, done.load(), o.proofs, g.synthesizing, g.queued, g.on_gpu,
                                 g.pending_finalize, format_size(s.rss_bytes))
                  << std::flush;
      }
    } catch (const std::exception&) {
      // A status call that fails (daemon busy) only loses one sample.
    }
    std::unique_lock lock(m);
    cv.wait_for(lock, stop, o.sample_interval, [] { return false; });
  }
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

}  // namespace

uint32_t bench_report_t::completed() const {
  return static_cast<uint32_t>(std::count_if(proofs.begin(), proofs.end(), [](const bench_proof_t& p) {
    return p.result.status == engine::job_status_t::completed;
  }));
}

double bench_report_t::seconds_per_proof() const {
  uint32_t n = completed();
  return n == 0 ? 0.0 : elapsed_ms / 1000.0 / n;
}

double bench_report_t::gpu_busy_share() const {
  double gpu = 0;
  for (const auto& p : proofs) gpu += static_cast<double>(p.result.gpu_ms);
  double capacity = elapsed_ms * std::max<uint32_t>(prove_workers, 1);
  return capacity > 0 ? std::min(1.0, gpu / capacity) : 0.0;
}

std::map<std::string, double> bench_report_t::device_busy_shares() const {
  std::map<std::string, std::vector<std::pair<double, double>>> spans;  // device -> prove_start intervals
  for (const auto& p : proofs) {
    if (p.timeline_json.empty()) continue;
    const auto t = nlohmann::json::parse(p.timeline_json, nullptr, false);
    if (!t.is_object() || !t.contains("partitions")) continue;
    for (const auto& part : t["partitions"]) {
      for (const auto& ev : part.value("events", nlohmann::json::array())) {
        if (ev.value("stage", "") != "prove_start") continue;
        // "worker <k> <backend> device <n>": the device is what follows the worker.
        const std::string where = ev.value("where", "");
        const auto at = where.find(' ', where.find(' ') + 1);
        const std::string device = at == std::string::npos ? where : where.substr(at + 1);
        spans[device].emplace_back(p.submit_ms + ev.value("start_ms", 0.0), p.submit_ms + ev.value("end_ms", 0.0));
      }
    }
  }
  std::map<std::string, double> out;
  for (auto& [device, v] : spans) {
    std::sort(v.begin(), v.end());
    double busy = 0, lo = v.front().first, hi = v.front().second;
    for (const auto& [a, b] : v) {
      if (a > hi) {
        busy += hi - lo;
        lo = a;
      }
      hi = std::max(hi, b);
    }
    busy += hi - lo;
    out[device] = elapsed_ms > 0 ? std::min(1.0, busy / elapsed_ms) : 0.0;
  }
  return out;
}

bench_report_t run_bench(proving_target_t& target, const bench_options_t& options, std::ostream* progress) {
  bench_report_t report;
  report.options = options;
  report.target = target.describe();
  const uint32_t slots = options.sequential ? 1 : std::max<uint32_t>(1, options.concurrency);
  report.proofs.resize(options.proofs);

  const auto t0 = steady::now();
  std::atomic<uint32_t> next{0}, done{0};
  std::atomic<bool> rejected{false};
  std::exception_ptr rejection;
  {
    std::jthread sampler([&](std::stop_token st) {
      sample_loop(st, target, options, t0, done, report.samples, progress);
    });
    std::vector<std::jthread> workers;
    for (uint32_t w = 0; w < slots; ++w) {
      workers.emplace_back([&] {
        for (uint32_t i = next++; i < options.proofs && !rejected; i = next++) {
          try {
            report.proofs[i] = run_one(target, options, t0);
          } catch (...) {
            if (!rejected.exchange(true)) rejection = std::current_exception();
          }
          ++done;
        }
      });
    }
    workers.clear();  // joins: every proof has returned
    report.elapsed_ms = ms_since(t0);
  }  // sampler stopped and joined
  if (rejection) std::rethrow_exception(rejection);
  auto s = target.status();
  report.peak_rss_bytes = s.peak_rss_bytes;
  report.prove_workers = s.prove_workers;
  report.samples.push_back({ms_since(t0), s.rss_bytes, s.gauges});
  return report;
}

std::string format_bench_report(const bench_report_t& r) {
  std::string out;
  auto line = [&out](std::string s) { out += s + "\n"; };
  const auto& o = r.options;
  line(fmt::format("=== {} run: {} proofs of {} (size {}, {} partition{}), {} in flight, {} ===", r.mode(), o.proofs,
                   o.circuit, o.size == 0 ? std::string("default") : std::to_string(o.size), o.partitions,
                   o.partitions == 1 ? "" : "s", o.sequential ? 1 : o.concurrency, r.target));
  std::vector<double> latency;
  std::map<std::string, double> stage_ms;  // from timelines: stage name -> total ms
  double queue = 0, synth = 0, gpu = 0, total = 0;
  uint32_t failed = 0;
  for (size_t i = 0; i < r.proofs.size(); ++i) {
    const auto& p = r.proofs[i];
    bool ok = p.result.status == engine::job_status_t::completed;
    double wall = p.done_ms - p.submit_ms;
    line(fmt::format("  [{}/{}] {:<9} {:8.1f} ms  (queue {} ms, synthesis {} ms, prove {} ms{}){}", i + 1,
                     r.proofs.size(), engine::job_status_name(p.result.status), wall, p.result.queue_wait_ms,
                     p.result.synthesis_ms, p.result.gpu_ms,
                     p.result.retries ? fmt::format(", {} retries", p.result.retries) : "",
                     ok ? "" : "  error: " + p.result.error_message));
    if (!ok) {
      ++failed;
      continue;
    }
    latency.push_back(wall);
    queue += static_cast<double>(p.result.queue_wait_ms);
    synth += static_cast<double>(p.result.synthesis_ms);
    gpu += static_cast<double>(p.result.gpu_ms);
    total += static_cast<double>(p.result.total_ms);
    if (!p.timeline_json.empty()) {
      auto t = nlohmann::json::parse(p.timeline_json, nullptr, false);
      if (t.is_object() && t.contains("partitions")) {
        for (const auto& part : t["partitions"]) {
          for (const auto& ev : part.value("events", nlohmann::json::array())) {
            stage_ms[ev.value("stage", "?")] += ev.value("end_ms", 0.0) - ev.value("start_ms", 0.0);
          }
        }
      }
    }
  }
  uint32_t n = r.completed();
  line(fmt::format("completed {} / {}, failed {}, elapsed {:.2f} s", n, r.proofs.size(), failed, r.elapsed_ms / 1000));
  if (n > 0) {
    line(fmt::format("latency ms:  min {:.1f}  p50 {:.1f}  p90 {:.1f}  max {:.1f}  mean {:.1f}", percentile(latency, 0),
                     percentile(latency, 0.5), percentile(latency, 0.9), percentile(latency, 1),
                     std::accumulate(latency.begin(), latency.end(), 0.0) / n));
    line(fmt::format("throughput:  {:.3f} s/proof  ({:.2f} proofs/min)", r.seconds_per_proof(),
                     60.0 / r.seconds_per_proof()));
    line(fmt::format("per proof (mean ms): queue {:.1f}  synthesis {:.1f}  prove {:.1f}  engine total {:.1f}", queue / n,
                     synth / n, gpu / n, total / n));
    if (!stage_ms.empty()) {
      std::string stages;
      for (const auto& [name, ms] : stage_ms) stages += fmt::format("  {} {:.1f}", name, ms / n);
      line("per proof from timelines (mean ms, summed over partitions):" + stages);
    }
  }
  line(fmt::format("peak RSS {}   prove-worker (GPU) busy {:.1f} % of {} worker{}", format_size(r.peak_rss_bytes),
                   100.0 * r.gpu_busy_share(), r.prove_workers, r.prove_workers == 1 ? "" : "s"));
  for (const auto& [device, share] : r.device_busy_shares()) {
    line(fmt::format("{} busy (some worker in prove_start, from timelines) {:.1f} %", device, 100.0 * share));
  }
  return out;
}

nlohmann::json bench_timeline_json(const std::vector<bench_report_t>& runs) {
  auto all = nlohmann::json::array();
  for (const auto& r : runs) {
    nlohmann::json run = {{"mode", r.mode()},
                          {"circuit", r.options.circuit},
                          {"size", r.options.size},
                          {"partitions", r.options.partitions},
                          {"proofs", r.options.proofs},
                          {"concurrency", r.options.sequential ? 1 : r.options.concurrency},
                          {"elapsed_ms", r.elapsed_ms},
                          {"target", r.target},
                          {"peak_rss_bytes", r.peak_rss_bytes}};
    auto jobs = nlohmann::json::array();
    for (const auto& p : r.proofs) {
      nlohmann::json t = p.timeline_json.empty() ? nlohmann::json() : nlohmann::json::parse(p.timeline_json, nullptr, false);
      if (t.is_discarded()) t = nullptr;
      jobs.push_back({{"job_id", p.job_id},
                      {"submit_ms", p.submit_ms},
                      {"done_ms", p.done_ms},
                      {"status", engine::job_status_name(p.result.status)},
                      {"timeline", t}});
    }
    run["jobs"] = std::move(jobs);
    auto samples = nlohmann::json::array();
    for (const auto& s : r.samples) {
      samples.push_back({{"t_ms", s.t_ms},
                         {"rss_bytes", s.rss_bytes},
                         {"synthesizing", s.gauges.synthesizing},
                         {"queued", s.gauges.queued},
                         {"on_gpu", s.gauges.on_gpu},
                         {"pending_finalize", s.gauges.pending_finalize}});
    }
    run["samples"] = std::move(samples);
    all.push_back(std::move(run));
  }
  return {{"runs", std::move(all)}};
}

}  // namespace cuzk::service
