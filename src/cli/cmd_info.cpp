// cuzk info FILE
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "groth16/groth16.hpp"

namespace cuzk::cli {
namespace {

int run_info(const std::string& path, bool layout_only) {
  auto s = groth16::summarize_file(path, !layout_only);
  fmt::print("file:          {} ({} bytes)\n", path, s.file_bytes);
  fmt::print("kind:          {}\n", s.kind);
  fmt::print("public inputs: {} (ic: {} points, ONE included)\n", s.vk.num_public_inputs(), s.vk.ic.size());
  if (s.kind == "parameters") {
    fmt::print("h:             {} (domain {})\n", s.h, s.h + 1);
    fmt::print("l:             {} (aux variables)\n", s.l);
    fmt::print("a:             {}\n", s.a);
    fmt::print("b_g1:          {}\n", s.b_g1);
    fmt::print("b_g2:          {}\n", s.b_g2);
  }
  return exit_ok;
}

}  // namespace

command_t add_info_command(CLI::App& root) {
  auto path = std::make_shared<std::string>();
  auto layout_only = std::make_shared<bool>(false);
  auto* app = root.add_subcommand("info", "Show what a parameter or verifying-key file holds (validates every point)");
  app->add_option("file", *path, "Parameter or verifying-key file")->required();
  app->add_flag("--layout-only", *layout_only,
                "Parameter files: the counts from the file's layout without reading the queries' points (instant on "
                "the 44 GiB PoRep file; checking every point takes core-hours there)");
  return {app, [path, layout_only] { return run_info(*path, *layout_only); }};
}

}  // namespace cuzk::cli
