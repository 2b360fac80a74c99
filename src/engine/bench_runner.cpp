#include "engine/bench_runner.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

namespace cuzk::engine {
namespace {

struct stats_t {
  double avg = 0, min = 0, max = 0;
};

stats_t summarize(const std::vector<double>& v) {
  if (v.empty()) return {};
  stats_t s{0, v.front(), v.front()};
  for (double x : v) {
    s.avg += x;
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
  }
  s.avg /= double(v.size());
  return s;
}

}  // namespace

bench_report_t run_bench(engine_t& engine, const job_request_t& prototype, uint32_t count, uint32_t concurrency) {
  bench_report_t r;
  r.count = count;
  r.concurrency = std::max(1u, std::min(concurrency, std::max(count, 1u)));
  r.results.resize(count);
  std::vector<double> wall(count, 0);
  std::atomic<uint32_t> next{0};
  const auto t0 = std::chrono::steady_clock::now();
  {
    std::vector<std::jthread> clients;
    for (uint32_t c = 0; c < r.concurrency; ++c) {
      clients.emplace_back([&] {
        for (uint32_t i; (i = next++) < count;) {
          job_request_t req = prototype;
          req.request_id.clear();
          const auto s = std::chrono::steady_clock::now();
          try {
            r.results[i] = engine.prove(std::move(req));
          } catch (const std::exception& e) {
            r.results[i].status = job_status_t::failed;
            r.results[i].error_message = e.what();
          }
          wall[i] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
        }
      });
    }
  }
  r.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<double> ok_wall, prove;
  for (uint32_t i = 0; i < count; ++i) {
    if (r.results[i].status == job_status_t::completed) {
      ++r.completed;
      ok_wall.push_back(wall[i]);
      prove.push_back(double(r.results[i].gpu_ms));
    } else {
      ++r.failed;
    }
  }
  if (r.completed && r.elapsed_s > 0) {
    r.proofs_per_min = r.completed * 60.0 / r.elapsed_s;
    r.s_per_proof = r.elapsed_s / r.completed;
  }
  const auto w = summarize(ok_wall), p = summarize(prove);
  r.wall_avg_ms = w.avg, r.wall_min_ms = w.min, r.wall_max_ms = w.max;
  r.prove_avg_ms = p.avg, r.prove_min_ms = p.min, r.prove_max_ms = p.max;
  r.peak_rss_bytes = read_process_memory().peak_rss_bytes;
  return r;
}

}  // namespace cuzk::engine
