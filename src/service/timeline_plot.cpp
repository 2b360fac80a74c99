#include "service/timeline_plot.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <vector>
#include <stdexcept>

#include "service/config_values.hpp"

namespace cuzk::service {
namespace {

using nlohmann::json;

constexpr double width = 1200, left = 150, right = 30, gantt_row_max = 14, rss_height = 140;
constexpr double plot_w = width - left - right;

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Fixed colours for the engine's stages; any other name gets one from the
// palette, the same one every time it appears in a file.
class stage_colors {
 public:
  const std::string& operator()(const std::string& stage) {
    used_.insert(stage);
    auto it = colors_.find(stage);
    if (it != colors_.end()) return it->second;
    // Distinct from the fixed colours and from each other: the GPU prover
    // alone reports nine prove_start.* steps.
    static constexpr std::array<const char*, 12> palette{"#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
                                                          "#9c755f", "#bab0ac", "#17becf", "#bcbd22",
                                                          "#8c564b", "#e377c2", "#393b79", "#637939"};
    return colors_.emplace(stage, palette[extra_++ % palette.size()]).first->second;
  }
  // The stages drawn so far, with their colours, for the legend.
  std::vector<std::pair<std::string, std::string>> used() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& s : used_) out.emplace_back(s, colors_.at(s));
    return out;
  }

 private:
  std::map<std::string, std::string> colors_ = {
      {"synthesis", "#4e79a7"}, {"queue", "#d3d3d3"}, {"prove_start", "#e15759"},
      {"gpu", "#e15759"},       {"finalize", "#59a14f"}, {"verify", "#f28e2b"}, {"job", "#888888"}};
  std::set<std::string> used_;
  size_t extra_ = 0;
};

double number(const json& j, const char* key, const char* where) {
  if (!j.contains(key) || !j[key].is_number()) {
    throw std::invalid_argument(fmt::format("timeline: {}: '{}' is missing or not a number", where, key));
  }
  return j[key].get<double>();
}

struct bar_t {
  double start, end;
  std::string stage, label;
};

// Rows of bars for one run: a row per partition, or per job when the job has
// no timeline (bench run without --timeline, or a failed submit).
std::vector<std::pair<std::string, std::vector<bar_t>>> gantt_rows(const json& run) {
  std::vector<std::pair<std::string, std::vector<bar_t>>> rows;
  if (!run.contains("jobs") || !run["jobs"].is_array()) throw std::invalid_argument("timeline: run: 'jobs' is not an array");
  size_t k = 0;
  for (const auto& job : run["jobs"]) {
    ++k;
    double submit = number(job, "submit_ms", "job");
    const json& t = job.contains("timeline") ? job["timeline"] : json();
    if (!t.is_object() || !t.contains("partitions") || !t["partitions"].is_array()) {
      rows.push_back({fmt::format("job {}", k), {{submit, number(job, "done_ms", "job"), "job", ""}}});
      continue;
    }
    for (const auto& part : t["partitions"]) {
      std::vector<bar_t> bars;
      for (const auto& ev : part.value("events", json::array())) {
        std::string stage = ev.value("stage", "?");
        bars.push_back({submit + number(ev, "start_ms", "event"), submit + number(ev, "end_ms", "event"), stage,
                        fmt::format("job {} partition {}: {}", k, part.value("index", 0), stage)});
      }
      rows.push_back({fmt::format("job {} p{}", k, part.value("index", 0)), std::move(bars)});
    }
  }
  return rows;
}

void axis(std::string& svg, double y, double span_ms) {
  double step = 1;
  while (span_ms / step > 10) step *= (std::to_string(static_cast<long long>(step))[0] == '2') ? 2.5 : 2;
  for (double t = 0; t <= span_ms; t += step) {
    double x = left + plot_w * t / span_ms;
    svg += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#ccc"/>)"
                       R"(<text x="{:.1f}" y="{:.1f}" font-size="10" text-anchor="middle">{}</text>)"
                       "\n",
                       x, y, x, y + 4, x, y + 15, t >= 1000 ? fmt::format("{:g} s", t / 1000) : fmt::format("{:g} ms", t));
  }
}

double render_run(std::string& svg, const json& run, double y, stage_colors& colors) {
  auto rows = gantt_rows(run);
  double span = 1;
  for (const auto& [label, bars] : rows) {
    for (const auto& b : bars) span = std::max(span, b.end);
  }
  for (const auto& s : run.value("samples", json::array())) span = std::max(span, s.value("t_ms", 0.0));
  auto x_of = [&](double t) { return left + plot_w * std::clamp(t, 0.0, span) / span; };

  svg += fmt::format(R"(<text x="10" y="{:.1f}" font-size="14" font-weight="bold">{} run: {} proofs of {}, {} in flight, {:.2f} s</text>)"
                     "\n",
                     y + 14, xml_escape(run.value("mode", "?")), run.value("proofs", 0),
                     xml_escape(run.value("circuit", "?")), run.value("concurrency", 0),
                     run.value("elapsed_ms", 0.0) / 1000);
  y += 24;
  const double row_h = std::clamp(600.0 / std::max<size_t>(rows.size(), 1), 2.0, gantt_row_max);
  for (size_t i = 0; i < rows.size(); ++i) {
    double ry = y + static_cast<double>(i) * row_h;
    if (row_h >= 9) {
      svg += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="{:.0f}" text-anchor="end">{}</text>)", left - 6,
                         ry + row_h - 2, std::min(row_h - 1, 11.0), xml_escape(rows[i].first));
    }
    for (const auto& b : rows[i].second) {
      svg += fmt::format(R"(<rect x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" fill="{}"><title>{} {:.1f}-{:.1f} ms</title></rect>)"
                         "\n",
                         x_of(b.start), ry + 1, std::max(0.5, x_of(b.end) - x_of(b.start)), row_h - 2,
                         colors(b.stage), xml_escape(b.label), b.start, b.end);
    }
  }
  y += static_cast<double>(rows.size()) * row_h;
  axis(svg, y, span);
  y += 30;

  // RSS over time, scaled to the run's peak sample.
  const auto samples = run.value("samples", json::array());
  double peak = 1;
  for (const auto& s : samples) peak = std::max(peak, s.value("rss_bytes", 0.0));
  svg += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="11" text-anchor="end">RSS</text>)"
                     R"(<text x="{:.1f}" y="{:.1f}" font-size="10" text-anchor="end">{}</text>)"
                     R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="none" stroke="#999"/>)"
                     "\n",
                     left - 6, y + rss_height / 2, left - 6, y + 10, format_size(static_cast<uint64_t>(peak)), left, y,
                     plot_w, rss_height);
  std::string points;
  for (const auto& s : samples) {
    points += fmt::format("{:.1f},{:.1f} ", x_of(s.value("t_ms", 0.0)),
                          y + rss_height - rss_height * s.value("rss_bytes", 0.0) / peak);
  }
  if (!points.empty()) {
    svg += fmt::format(R"(<polyline points="{}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>)" "\n", points);
  }
  y += rss_height;
  axis(svg, y, span);
  return y + 40;
}

}  // namespace

std::string render_timeline_svg(const json& timeline) {
  if (!timeline.is_object() || !timeline.contains("runs") || !timeline["runs"].is_array() || timeline["runs"].empty()) {
    throw std::invalid_argument("timeline: expected an object with a non-empty 'runs' array (from `cuzk bench --timeline-out`)");
  }
  stage_colors colors;
  std::string body;
  double y = 10;
  for (const auto& run : timeline["runs"]) y = render_run(body, run, y, colors);
  // The legend in rows that stay inside the picture.
  std::string legend;
  double lx = left;
  for (const auto& [stage, color] : colors.used()) {
    const double entry = 30 + 7.0 * static_cast<double>(stage.size());
    if (lx > left && lx + entry > width - right) {
      lx = left;
      y += 18;
    }
    legend += fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="12" height="12" fill="{}"/>)"
                          R"(<text x="{:.1f}" y="{:.1f}" font-size="11">{}</text>)",
                          lx, y, color, lx + 16, y + 10, xml_escape(stage));
    lx += entry;
  }
  y += 30;
  return fmt::format(R"(<?xml version="1.0" encoding="UTF-8"?>)"
                     "\n"
                     R"(<svg xmlns="http://www.w3.org/2000/svg" width="{:.0f}" height="{:.0f}" viewBox="0 0 {:.0f} {:.0f}" font-family="sans-serif">)"
                     "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{}{}\n</svg>\n",
                     width, y, width, y, body, legend);
}

}  // namespace cuzk::service
