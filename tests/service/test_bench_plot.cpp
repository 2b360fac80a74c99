// `cuzk bench` through an in-process engine, its timeline file, and the SVG
// that `cuzk plot` renders from it (checked to be well-formed XML holding one
// bar per recorded stage and the RSS curve).
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

#include "circuits/circuit_registry.hpp"
#include "groth16/groth16.hpp"
#include "service/bench_runner.hpp"
#include "service/timeline_plot.hpp"
#include "test_seed.hpp"

namespace cuzk::service {
namespace {

// A small XML well-formedness check: every tag closes in order, attributes
// are quoted, '&' starts a known entity, text holds no '<'. Returns "" or
// the first problem found.
std::string xml_problem(const std::string& s) {
  std::vector<std::string> open;
  size_t i = 0;
  if (s.rfind("<?xml", 0) == 0) i = s.find("?>") + 2;
  static const std::regex attr(R"(\s*[A-Za-z_:][-A-Za-z0-9_:.]*="[^"<]*")");
  while (i < s.size()) {
    size_t lt = s.find('<', i);
    std::string text = s.substr(i, lt == std::string::npos ? std::string::npos : lt - i);
    for (size_t a = text.find('&'); a != std::string::npos; a = text.find('&', a + 1)) {
      if (!std::regex_search(text.substr(a), std::regex("^&(lt|gt|amp|quot|apos);"))) return "bad entity in text";
    }
    if (lt == std::string::npos) break;
    size_t gt = s.find('>', lt);
    if (gt == std::string::npos) return "unterminated tag";
    std::string tag = s.substr(lt + 1, gt - lt - 1);
    if (!tag.empty() && tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "mismatched </" + tag.substr(1) + ">";
      open.pop_back();
    } else {
      bool self_closing = !tag.empty() && tag.back() == '/';
      if (self_closing) tag.pop_back();
      std::smatch m;
      std::regex name_re(R"(^([A-Za-z][A-Za-z0-9]*)((?:\s*[A-Za-z_:][-A-Za-z0-9_:.]*="[^"<]*")*)\s*$)");
      if (!std::regex_match(tag, m, name_re)) return "malformed tag <" + tag.substr(0, 60) + ">";
      if (!self_closing) open.push_back(m[1]);
    }
    i = gt + 1;
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(ServiceBench, InProcessRunsTimelineAndPlot) {
  groth16::seeded_rng rng(test::seed("ServiceBench setup"));
  engine::engine_config_t cfg;
  cfg.total_budget = uint64_t(2) << 30;
  cfg.synthesis_threads = 2;
  cfg.gpu_workers_per_device = 1;
  engine::engine_t engine(cfg);
  auto circuit = circuits::make_circuit("tiny");
  engine.register_parameters("tiny", std::make_shared<const groth16::parameters_t>(groth16::generate_parameters(
                                         *circuit, groth16::toxic_waste_t::random(rng))));
  auto target = make_engine_target(engine);

  std::vector<bench_report_t> runs;
  for (bool sequential : {false, true}) {
    bench_options_t o;
    o.circuit = "tiny";
    o.proofs = 5;
    o.concurrency = 3;
    o.partitions = 2;
    o.sequential = sequential;
    o.timeline = true;
    o.sample_interval = std::chrono::milliseconds(5);
    o.progress_interval = std::chrono::milliseconds(1);
    std::ostringstream progress;
    runs.push_back(run_bench(*target, o, &progress));
    const auto& r = runs.back();
    EXPECT_EQ(r.completed(), 5u);
    EXPECT_GT(r.seconds_per_proof(), 0);
    EXPECT_GT(r.peak_rss_bytes, 0u);
    EXPECT_GE(r.gpu_busy_share(), 0);
    EXPECT_LE(r.gpu_busy_share(), 1);
    EXPECT_FALSE(r.samples.empty());
    EXPECT_NE(progress.str().find("/5 done"), std::string::npos);
    for (const auto& p : r.proofs) {
      EXPECT_EQ(p.result.proof.size(), 2 * groth16::proof_size);
      EXPECT_LE(p.submit_ms, p.done_ms);
    }
    std::string text = format_bench_report(r);
    EXPECT_NE(text.find(sequential ? "sequential run" : "pipelined run"), std::string::npos) << text;
    EXPECT_NE(text.find("s/proof"), std::string::npos) << text;
    EXPECT_NE(text.find("synthesis"), std::string::npos) << text;
    EXPECT_NE(text.find("peak RSS"), std::string::npos) << text;
    // The prover's CPU over the run: something, and no more than its cores
    // could spend in the time it took.
    EXPECT_GT(r.cpu_seconds, 0);
    EXPECT_GE(r.cpu_cores, 1u);
    EXPECT_LE(r.cpu_seconds, r.cpu_cores * r.elapsed_ms / 1000.0 * 1.05 + 0.05);
    EXPECT_DOUBLE_EQ(r.headroom().core_seconds_per_proof, r.cpu_seconds / 5);
    EXPECT_NE(text.find("CPU: "), std::string::npos) << text;
  }
  // Sequential: a job is submitted only after the previous one returned.
  const auto& seq = runs[1].proofs;
  for (size_t i = 1; i < seq.size(); ++i) EXPECT_GE(seq[i].submit_ms, seq[i - 1].done_ms);

  auto json = bench_timeline_json(runs);
  ASSERT_EQ(json["runs"].size(), 2u);
  size_t events = 0, partitions = 0;
  for (const auto& run : json["runs"]) {
    for (const auto& job : run["jobs"]) {
      ASSERT_TRUE(job["timeline"].is_object());
      for (const auto& part : job["timeline"]["partitions"]) {
        ++partitions;
        events += part["events"].size();
      }
    }
  }
  EXPECT_EQ(partitions, 2u * 5 * 2);   // runs x jobs x partitions
  EXPECT_GE(events, 3 * partitions);  // at least synthesis, prove_start, finalize each

  std::string svg = render_timeline_svg(json);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_EQ(count(svg, "<title>"), events);  // one bar per stage event
  EXPECT_EQ(count(svg, "<polyline"), 2u);   // an RSS curve per run
  engine.stop();
}

// The union of prove_start intervals per device, on the run's time axis
// (event times are since each job's submit), against hand-computed truth.
TEST(ServiceBench, DeviceBusyIsTheUnionOfProveStarts) {
  auto timeline = [](std::vector<std::tuple<const char*, double, double, const char*>> events) {
    nlohmann::json parts = nlohmann::json::array();
    for (const auto& [stage, a, b, where] : events) {
      parts.push_back({{"events", {{{"stage", stage}, {"start_ms", a}, {"end_ms", b}, {"where", where}}}}});
    }
    return nlohmann::json{{"partitions", parts}}.dump();
  };
  bench_report_t r;
  r.elapsed_ms = 100;
  bench_proof_t a, b, c;
  a.submit_ms = 0;
  a.timeline_json = timeline({{"prove_start", 10, 30, "worker 0 cuda device 0"},
                              {"prove_start", 20, 50, "worker 1 cuda device 0"},
                              {"synthesis", 0, 99, ""}});
  b.submit_ms = 40;  // its events move by 40
  b.timeline_json = timeline({{"prove_start", 20, 30, "worker 1 cuda device 0"},
                              {"prove_start", 0, 10, "worker 2 cuda device 1"}});
  c.submit_ms = 5;  // no timeline: ignored
  r.proofs = {a, b, c};
  const auto shares = r.device_busy_shares();
  ASSERT_EQ(shares.size(), 2u);
  EXPECT_DOUBLE_EQ(shares.at("cuda device 0"), 0.5);  // [10, 50] and [60, 70]
  EXPECT_DOUBLE_EQ(shares.at("cuda device 1"), 0.1);  // [40, 50]
  EXPECT_NE(format_bench_report(r).find("cuda device 0 busy (some worker in prove_start, from timelines) 50.0 %"),
            std::string::npos);
  r.proofs.clear();
  EXPECT_TRUE(r.device_busy_shares().empty());
}

// The CPU headroom line against hand-computed truth: two completed proofs in
// 100 ms, devices busy 50 % and 10 % of it, 0.6 CPU seconds on 16 cores.
TEST(ServiceBench, HeadroomIsCoresTimesDeviceSecondsOverCoreSeconds) {
  auto timeline = [](const char* where, double a, double b) {
    return nlohmann::json{
        {"partitions", {{{"events", {{{"stage", "prove_start"}, {"start_ms", a}, {"end_ms", b}, {"where", where}}}}}}}}
        .dump();
  };
  bench_report_t r;
  r.elapsed_ms = 100;
  bench_proof_t a, b;
  a.result.status = b.result.status = engine::job_status_t::completed;
  a.done_ms = b.done_ms = 100;
  a.timeline_json = timeline("worker 0 cuda device 0", 10, 60);
  b.timeline_json = timeline("worker 1 cuda device 1", 0, 10);
  r.proofs = {a, b};
  EXPECT_EQ(r.headroom().core_seconds_per_proof, 0);  // the target reported no CPU time
  EXPECT_EQ(format_bench_report(r).find("CPU: "), std::string::npos);
  r.cpu_seconds = 0.6;
  r.cpu_cores = 16;
  const auto h = r.headroom();
  EXPECT_DOUBLE_EQ(h.core_seconds_per_proof, 0.3);
  EXPECT_NEAR(h.device_seconds_per_proof, (0.5 + 0.1) * 0.1 / 2, 1e-12);
  EXPECT_NEAR(h.devices_fed, 16 * 0.03 / 0.3, 1e-9);
  const std::string text = format_bench_report(r);
  EXPECT_NE(text.find("CPU: 0.3 core-s per proof (6.0 of 16 cores busy on average); device busy 0.03 s per proof, "
                      "so these 16 cores could feed ~1.6 such devices"),
            std::string::npos)
      << text;
}

// The GPU prover's nine prove_start.* steps plus the engine's stages: every
// legend entry inside the picture, and no two stages sharing a colour.
TEST(ServiceBench, LegendFitsAndColoursDiffer) {
  const std::vector<std::string> stages = {"synthesis", "queue", "prove_start", "prove_start.checks",
                                           "prove_start.upload_aux", "prove_start.compact_b", "prove_start.compute_h",
                                           "prove_start.msm_h", "prove_start.msm_l", "prove_start.msm_a",
                                           "prove_start.msm_b_g1", "prove_start.msm_b_g2", "finalize", "verify"};
  nlohmann::json events = nlohmann::json::array();
  for (size_t i = 0; i < stages.size(); ++i) {
    events.push_back({{"stage", stages[i]}, {"start_ms", double(i)}, {"end_ms", double(i + 1)}});
  }
  nlohmann::json t = {
      {"runs",
       {{{"mode", "pipelined"},
         {"jobs", {{{"submit_ms", 0}, {"done_ms", 20}, {"timeline", {{"partitions", {{{"index", 0}, {"events", events}}}}}}}}}}}}};
  const std::string svg = render_timeline_svg(t);
  EXPECT_EQ(xml_problem(svg), "");
  const std::regex entry(R"re(<rect x="([0-9.]+)" y="[0-9.]+" width="12" height="12" fill="(#[0-9a-f]+)"/><text x="[0-9.]+" y="[0-9.]+" font-size="11">([^<]+)</text>)re");
  const std::regex svg_width(R"re(<svg [^>]*width="([0-9]+)")re");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, svg_width));
  const double width = std::stod(m[1]);
  std::map<std::string, std::string> colour_of;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), entry); it != std::sregex_iterator(); ++it) {
    const auto& e = *it;
    const std::string stage = e[3];
    EXPECT_LE(std::stod(e[1]) + 16 + 7.0 * double(stage.size()), width) << stage << " runs off the picture";
    colour_of[stage] = e[2];
  }
  EXPECT_EQ(colour_of.size(), stages.size());
  std::set<std::string> colours;
  for (const auto& [stage, colour] : colour_of) colours.insert(colour);
  EXPECT_EQ(colours.size(), colour_of.size()) << "two stages share a colour";
}

TEST(ServiceBench, PlotRejectsWhatIsNotATimeline) {
  EXPECT_THROW(render_timeline_svg(nlohmann::json::array()), std::invalid_argument);
  EXPECT_THROW(render_timeline_svg({{"runs", nlohmann::json::array()}}), std::invalid_argument);
  EXPECT_THROW(render_timeline_svg({{"runs", {{{"jobs", {{{"submit_ms", "soon"}}}}}}}}), std::invalid_argument);
  // A run without engine timelines still plots: one bar per job, names escaped.
  nlohmann::json t = {{"runs",
                       {{{"mode", "pipelined"},
                         {"circuit", "<tiny & co>"},
                         {"jobs", {{{"job_id", "a"}, {"submit_ms", 0}, {"done_ms", 12.5}, {"timeline", nullptr}}}},
                         {"samples", {{{"t_ms", 0}, {"rss_bytes", 1000}}, {{"t_ms", 12.5}, {"rss_bytes", 3000}}}}}}}};
  std::string svg = render_timeline_svg(t);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("&lt;tiny &amp; co&gt;"), std::string::npos);
  EXPECT_EQ(count(svg, "<title>"), 1u);
}

TEST(ServiceBench, XmlCheckerCatchesBrokenSvg) {  // the checker above must be able to fail
  EXPECT_NE(xml_problem("<svg><rect></svg>"), "");
  EXPECT_NE(xml_problem("<svg><text>a < b</text></svg>"), "");
  EXPECT_NE(xml_problem("<svg x=1></svg>"), "");
  EXPECT_NE(xml_problem("<svg>&nope;</svg>"), "");
  EXPECT_EQ(xml_problem("<svg a=\"1\"><g/><text>a &amp; b</text></svg>"), "");
}

}  // namespace

// The steady rate against hand-computed truth: completions at 27.0, 39.6,
// 55.3, 70.8 and 86.4 s (one more failed at 90 s, which does not count):
// (86.4 - 27.0) / 4 = 14.85 s/proof; with two completed there is none.
TEST(ServiceBench, SteadyRateIsFirstToLastCompletionOverIntervals) {
  bench_report_t r;
  r.elapsed_ms = 101'900;
  for (double done : {39'600.0, 27'000.0, 86'400.0, 55'300.0, 70'800.0}) {
    bench_proof_t p;
    p.result.status = engine::job_status_t::completed;
    p.done_ms = done;
    r.proofs.push_back(p);
  }
  bench_proof_t bad;
  bad.result.status = engine::job_status_t::failed;
  bad.done_ms = 90'000;
  r.proofs.push_back(bad);
  EXPECT_NEAR(r.steady_seconds_per_proof(), 14.85, 1e-9);
  EXPECT_NEAR(r.seconds_per_proof(), 101.9 / 5, 1e-9);
  const std::string text = format_bench_report(r);
  EXPECT_NE(text.find("; steady 14.850 s/proof (first to last of 5 completions)"), std::string::npos) << text;
  r.proofs.resize(2);
  EXPECT_EQ(r.steady_seconds_per_proof(), 0);
  EXPECT_EQ(format_bench_report(r).find("steady"), std::string::npos);
}

}  // namespace cuzk::service
