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

bool proven(const bench_proof_t& p) { return p.result.status == engine::job_status_t::completed; }

double ms_since(steady::time_point t0) {
  return std::chrono::duration<double, std::milli>(steady::now() - t0).count();
}

engine::job_request_t bench_request(const bench_options_t& o) {
  engine::job_request_t r;
  if (o.request) {
    r = *o.request;
  } else {
    r.proof_kind = engine::proof_kind_t::circuit;
    r.circuit = o.circuit;
    r.circuit_size = o.size;
    r.partitions = o.partitions;
  }
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

// Partitions anywhere between submit and proof: what a PoSt proof under load
// should meet when it is submitted.
int64_t in_flight(const engine::gauge_snapshot_t& g) {
  return g.synthesizing + g.queued + g.on_gpu + g.pending_finalize;
}

// Polls the target until partitions are in flight or `limit` passed; the
// gauges it saw last (all zero when every status call failed).
engine::gauge_snapshot_t wait_busy(proving_target_t& target, std::chrono::milliseconds limit) {
  const auto until = steady::now() + limit;
  engine::gauge_snapshot_t g;
  do {
    try {
      g = target.status().gauges;
      if (in_flight(g) > 0) break;
    } catch (const std::exception&) {
      // A failed status call (daemon busy) only delays the check.
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  } while (steady::now() < until);
  return g;
}

// The load of run_bench_under_load: `concurrency` slots, each submitting the
// stream's next job as soon as its previous one returned, until finish().
class load_stream_t {
 public:
  load_stream_t(proving_target_t& target, const bench_options_t& options, steady::time_point t0)
      : target_(target), options_(options), t0_(t0) {
    for (uint32_t i = 0; i < std::max<uint32_t>(1, options.concurrency); ++i)
      slots_.emplace_back([this](std::stop_token st) { run_slot(st); });
  }

  // Until warm (bench_load_options_t::warmup); rethrows a rejected stream request.
  void wait_warm(std::chrono::milliseconds warmup) {
    std::unique_lock lk(m_);
    if (warmup.count() > 0) {
      cv_.wait_for(lk, warmup, [&] { return rejection_ != nullptr; });
    } else {
      cv_.wait(lk, [&] { return rejection_ != nullptr || !done_.empty(); });
    }
    if (rejection_) std::rethrow_exception(rejection_);
  }

  uint32_t returned() {
    std::lock_guard lk(m_);
    return static_cast<uint32_t>(done_.size());
  }

  void check() {
    std::lock_guard lk(m_);
    if (rejection_) std::rethrow_exception(rejection_);
  }

  // Stops resubmitting and waits for the jobs in flight (they count: they ran
  // under the same load); the stream's proofs in the order they returned.
  std::vector<bench_proof_t> finish() {
    for (auto& s : slots_) s.request_stop();
    slots_.clear();
    check();
    return std::move(done_);
  }

 private:
  void run_slot(std::stop_token st) {
    while (!st.stop_requested()) {
      try {
        auto p = run_one(target_, options_, t0_);
        std::lock_guard lk(m_);
        done_.push_back(std::move(p));
      } catch (...) {
        std::lock_guard lk(m_);
        if (!rejection_) rejection_ = std::current_exception();
        cv_.notify_all();
        return;
      }
      cv_.notify_all();
    }
  }

  proving_target_t& target_;
  const bench_options_t options_;
  const steady::time_point t0_;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<bench_proof_t> done_;
  std::exception_ptr rejection_;
  std::vector<std::jthread> slots_;  // last: joined before the members they use go
};

// The loaded phase: the stream started and warm, then post.proofs PoSt
// proofs one at a time, each after wait_busy. Every time is on one axis
// (since the stream started), so the timeline shows the PoSt jobs among the
// stream's.
void run_loaded(proving_target_t& target, const bench_options_t& post, const bench_load_options_t& load,
                bench_load_report_t& out, std::ostream* progress) {
  const auto t0 = steady::now();
  std::atomic<uint32_t> unused{0};
  std::vector<bench_sample_t> samples;
  {
    std::jthread sampler([&](std::stop_token st) {
      sample_loop(st, target, load.stream, t0, unused, samples, nullptr);
    });
    load_stream_t stream(target, load.stream, t0);
    stream.wait_warm(load.warmup);
    out.loaded_start_ms = ms_since(t0);
    if (progress != nullptr) {
      *progress << fmt::format("[{:6.1f} s] load warm ({} stream job(s) returned); {} {} proof(s) under load\n",
                               out.loaded_start_ms / 1000, stream.returned(), post.proofs, post.circuit)
                << std::flush;
    }
    for (uint32_t i = 0; i < post.proofs; ++i) {
      stream.check();
      const auto met = wait_busy(target, load.busy_wait);
      auto p = run_one(target, post, t0);
      p.met = met;
      if (progress != nullptr) {
        *progress << fmt::format("[{:6.1f} s] under load [{}/{}] {} {:.1f} ms (met {} partitions in flight, {} "
                                 "proving)\n",
                                 p.done_ms / 1000, i + 1, post.proofs, engine::job_status_name(p.result.status),
                                 p.done_ms - p.submit_ms, in_flight(met), met.on_gpu)
                  << std::flush;
      }
      out.loaded.proofs.push_back(std::move(p));
    }
    out.loaded_end_ms = ms_since(t0);
    out.stream.proofs = stream.finish();
    out.stream.elapsed_ms = ms_since(t0);
  }  // sampler stopped and joined
  out.stream.samples = std::move(samples);
  out.loaded.elapsed_ms = out.loaded_end_ms - out.loaded_start_ms;
}

std::string latency_summary(const std::vector<double>& v) {
  if (v.empty()) return "no proof completed";
  return fmt::format("p50 {:.1f} ms  min {:.1f}  p90 {:.1f}  max {:.1f}  mean {:.1f}", percentile(v, 0.5),
                     percentile(v, 0), percentile(v, 0.9), percentile(v, 1),
                     std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()));
}

}  // namespace

std::vector<double> bench_report_t::latencies_ms() const {
  std::vector<double> v;
  for (const auto& p : proofs)
    if (proven(p)) v.push_back(p.done_ms - p.submit_ms);
  return v;
}

uint32_t bench_load_report_t::stream_completed_in_window() const {
  return static_cast<uint32_t>(std::count_if(stream.proofs.begin(), stream.proofs.end(), [&](const bench_proof_t& p) {
    return proven(p) && p.done_ms >= loaded_start_ms &&
           p.done_ms <= loaded_end_ms;
  }));
}

uint32_t bench_report_t::completed() const {
  return static_cast<uint32_t>(std::count_if(proofs.begin(), proofs.end(), proven));
}

double bench_report_t::seconds_per_proof() const {
  uint32_t n = completed();
  return n == 0 ? 0.0 : elapsed_ms / 1000.0 / n;
}

double bench_report_t::steady_seconds_per_proof() const {
  double first = 0, last = 0;
  uint32_t n = 0;
  for (const auto& p : proofs) {
    if (!proven(p)) continue;
    first = n == 0 ? p.done_ms : std::min(first, p.done_ms);
    last = n == 0 ? p.done_ms : std::max(last, p.done_ms);
    ++n;
  }
  return n < 3 ? 0.0 : (last - first) / 1000.0 / (n - 1);
}

double bench_report_t::gpu_busy_share() const {
  double gpu = 0;
  for (const auto& p : proofs) gpu += static_cast<double>(p.result.gpu_ms);
  double capacity = elapsed_ms * std::max<uint32_t>(prove_workers, 1);
  return capacity > 0 ? std::min(1.0, gpu / capacity) : 0.0;
}

bench_report_t::headroom_t bench_report_t::headroom() const {
  headroom_t h;
  const uint32_t n = completed();
  if (n == 0 || cpu_seconds <= 0) return h;
  h.core_seconds_per_proof = cpu_seconds / n;
  for (const auto& [device, share] : device_busy_shares()) h.device_seconds_per_proof += share * elapsed_ms / 1000.0 / n;
  if (h.device_seconds_per_proof > 0 && cpu_cores > 0) {
    h.devices_fed = double(cpu_cores) * h.device_seconds_per_proof / h.core_seconds_per_proof;
  }
  return h;
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

  const double cpu0 = target.status().process_cpu_seconds;
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
  if (cpu0 > 0 && s.process_cpu_seconds >= cpu0) {
    report.cpu_seconds = s.process_cpu_seconds - cpu0;
    report.cpu_cores = s.cpu_cores;
  }
  report.samples.push_back({ms_since(t0), s.rss_bytes, s.gauges});
  return report;
}

bench_load_report_t run_bench_under_load(proving_target_t& target, const bench_options_t& post,
                                         const bench_load_options_t& load, std::ostream* progress) {
  bench_load_report_t out;
  auto one_at_a_time = post;
  one_at_a_time.sequential = true;
  out.idle = run_bench(target, one_at_a_time, progress);
  out.idle.label = post.circuit + " idle";

  out.loaded.options = one_at_a_time;
  out.loaded.label = post.circuit + " under load";
  out.loaded.target = out.stream.target = target.describe();
  out.stream.options = load.stream;
  out.stream.label = "load stream (" + load.stream.circuit + ")";
  run_loaded(target, one_at_a_time, load, out, progress);
  out.stream.options.proofs = static_cast<uint32_t>(out.stream.proofs.size());
  const auto s = target.status();
  for (auto* r : {&out.loaded, &out.stream}) {
    r->peak_rss_bytes = s.peak_rss_bytes;
    r->prove_workers = s.prove_workers;
  }
  return out;
}

std::string format_latency_line(const bench_report_t& r) {
  return fmt::format("{}: {}  ({} of {} proofs)", r.title(), latency_summary(r.latencies_ms()), r.completed(),
                     r.proofs.size());
}

std::string format_load_report(const bench_load_report_t& r) {
  std::string out = format_bench_report(r.idle) + format_bench_report(r.loaded) + format_bench_report(r.stream);
  out += format_latency_line(r.idle) + "\n";
  uint32_t busy = 0;
  double partitions = 0;
  for (const auto& p : r.loaded.proofs) {
    if (!p.met) continue;
    busy += in_flight(*p.met) > 0 ? 1 : 0;
    partitions += static_cast<double>(in_flight(*p.met));
  }
  const auto n = r.loaded.proofs.size();
  out += format_latency_line(r.loaded) +
         fmt::format("; {} of {} met a busy pipeline (mean {:.1f} partitions in flight at submit)\n", busy, n,
                     n ? partitions / static_cast<double>(n) : 0.0);
  const auto idle = r.idle.latencies_ms(), loaded = r.loaded.latencies_ms();
  if (!idle.empty() && !loaded.empty())
    out += fmt::format("{} under load / idle, p50: {:.2f}x\n", r.idle.options.circuit,
                       percentile(loaded, 0.5) / percentile(idle, 0.5));
  const auto& st = r.stream;
  out += fmt::format("{} throughput: {} in flight, {} of {} completed in {:.2f} s ({:.3f} s/proof); {} completed "
                     "inside the loaded window of {:.2f} s\n",
                     st.title(), st.options.concurrency, st.completed(), st.proofs.size(), st.elapsed_ms / 1000,
                     st.seconds_per_proof(), r.stream_completed_in_window(), r.loaded.elapsed_ms / 1000);
  return out;
}

std::string format_bench_report(const bench_report_t& r) {
  std::string out;
  auto line = [&out](std::string s) { out += s + "\n"; };
  const auto& o = r.options;
  line(fmt::format("=== {} run: {} proofs of {} (size {}, {} partition{}), {} in flight, {} ===", r.title(), o.proofs,
                   o.circuit, o.size == 0 ? std::string("default") : std::to_string(o.size), o.partitions,
                   o.partitions == 1 ? "" : "s", o.sequential ? 1 : o.concurrency, r.target));
  std::vector<double> latency;
  std::map<std::string, double> stage_ms;  // from timelines: stage name -> total ms
  double queue = 0, synth = 0, gpu = 0, total = 0;
  uint32_t failed = 0;
  for (size_t i = 0; i < r.proofs.size(); ++i) {
    const auto& p = r.proofs[i];
    bool ok = proven(p);
    double wall = p.done_ms - p.submit_ms;
    const std::string met =
        p.met ? fmt::format(", met {} partitions in flight ({} proving)", in_flight(*p.met), p.met->on_gpu) : "";
    line(fmt::format("  [{}/{}] {:<9} {:8.1f} ms  (queue {} ms, synthesis {} ms, prove {} ms{}{}){}", i + 1,
                     r.proofs.size(), engine::job_status_name(p.result.status), wall, p.result.queue_wait_ms,
                     p.result.synthesis_ms, p.result.gpu_ms,
                     p.result.retries ? fmt::format(", {} retries", p.result.retries) : "", met,
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
    const double steady = r.steady_seconds_per_proof();
    line(fmt::format("throughput:  {:.3f} s/proof  ({:.2f} proofs/min){}", r.seconds_per_proof(),
                     60.0 / r.seconds_per_proof(),
                     steady > 0 ? fmt::format("; steady {:.3f} s/proof (first to last of {} completions)", steady, n)
                                : ""));
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
  if (const auto h = r.headroom(); h.core_seconds_per_proof > 0) {
    std::string fed;
    if (h.devices_fed > 0) {
      fed = fmt::format("; device busy {:.2f} s per proof, so these {} cores could feed ~{:.1f} such device{}",
                        h.device_seconds_per_proof, r.cpu_cores, h.devices_fed, h.devices_fed < 1.05 ? "" : "s");
    }
    line(fmt::format("CPU: {:.1f} core-s per proof ({:.1f} of {} cores busy on average){}", h.core_seconds_per_proof,
                     r.cpu_seconds / std::max(r.elapsed_ms / 1000.0, 1e-9), r.cpu_cores, fed));
  }
  return out;
}

nlohmann::json bench_timeline_json(const std::vector<bench_report_t>& runs) {
  auto all = nlohmann::json::array();
  for (const auto& r : runs) {
    nlohmann::json run = {{"mode", r.mode()},
                          {"label", r.title()},
                          {"circuit", r.options.circuit},
                          {"size", r.options.size},
                          {"partitions", r.options.partitions},
                          {"proofs", r.options.proofs},
                          {"concurrency", r.options.sequential ? 1 : r.options.concurrency},
                          {"elapsed_ms", r.elapsed_ms},
                          {"target", r.target},
                          {"peak_rss_bytes", r.peak_rss_bytes},
                          {"cpu_seconds", r.cpu_seconds},
                          {"cpu_cores", r.cpu_cores}};
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
