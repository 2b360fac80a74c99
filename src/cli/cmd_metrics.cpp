// cuzk metrics [--daemon ADDR]
#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/service_support.hpp"
#include "service/client_t.hpp"

namespace cuzk::cli {

command_t add_metrics_command(CLI::App& root) {
  auto address = std::make_shared<std::string>();
  auto* app = root.add_subcommand("metrics", "Print a running daemon's Prometheus metrics (GetMetrics)");
  add_daemon_option(*app, *address, true);
  return {app, [address] {
            return run_rpc_guarded([&] {
              fmt::print("{}", service::client_t(*address).metrics());
              return int(exit_ok);
            });
          }};
}

}  // namespace cuzk::cli
