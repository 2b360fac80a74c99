#pragma once
// What the daemon-facing commands (daemon, status, metrics, bench) share:
// the --daemon option and how an RPC failure becomes an exit code.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "cli/cli_support.hpp"
#include "service/config_values.hpp"
#include "service/rpc_error.hpp"

namespace cuzk::cli {

inline CLI::Option* add_daemon_option(CLI::App& app, std::string& address, bool required_default) {
  if (required_default) address = service::default_listen_address();
  return app.add_option("--daemon", address,
                        "Daemon address: unix:///path or IP:port (default " + service::default_listen_address() + ")");
}

// Caller mistakes (INVALID_ARGUMENT, NOT_FOUND) exit 2; an unreachable or
// failing daemon exits 3.
inline int run_rpc_guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const service::rpc_error& e) {
    return report_error(e.what(), e.is_caller_error() ? exit_bad_input : exit_internal);
  }
}

}  // namespace cuzk::cli
