// cuzk plot --timeline FILE --out FILE.svg
#include <fmt/core.h>

#include <memory>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "cli/file_io.hpp"
#include "service/timeline_plot.hpp"

namespace cuzk::cli {
namespace {

int run_plot(const std::string& timeline, const std::string& out) {
  std::string svg;
  try {
    svg = service::render_timeline_svg(read_json_file(timeline));
  } catch (const std::invalid_argument& e) {
    return report_error(fmt::format("{}: {}", timeline, e.what()));
  }
  write_text_file(out, svg);
  fmt::print("wrote {}\n", out);
  return exit_ok;
}

}  // namespace

command_t add_plot_command(CLI::App& root) {
  auto timeline = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto* app = root.add_subcommand("plot", "Render a `cuzk bench --timeline-out` file as SVG: stages per partition, RSS over time");
  app->add_option("--timeline", *timeline, "Timeline JSON from cuzk bench")->required();
  app->add_option("--out,-o", *out, "SVG file to write")->required();
  return {app, [timeline, out] { return run_plot(*timeline, *out); }};
}

}  // namespace cuzk::cli
