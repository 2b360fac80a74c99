#pragma once
// `cuzk plot`: the bench timeline file (bench_runner.hpp) as one SVG. Per
// run, a Gantt chart with one row per partition (jobs in submission order)
// and one bar per stage, on the run's shared time axis, then RSS over time
// beneath it. Hand-written SVG: no dependency, viewable in any browser.
#include <nlohmann/json.hpp>
#include <string>

namespace cuzk::service {

// Throws std::invalid_argument naming what is missing or mistyped when the
// JSON is not a bench timeline.
std::string render_timeline_svg(const nlohmann::json& timeline);

}  // namespace cuzk::service
