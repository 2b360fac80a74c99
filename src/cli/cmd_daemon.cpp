// cuzk daemon [--config FILE] [--listen ADDR] [--log-level L]
#include <signal.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <thread>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "service/config_error.hpp"
#include "service/daemon_config_t.hpp"
#include "service/daemon_t.hpp"

namespace cuzk::cli {
namespace {

struct daemon_options {
  std::string config, listen, log_level;
};

sigset_t shutdown_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

int run_daemon(const daemon_options& o) {
  // Blocked before any thread starts, so every gRPC and engine thread
  // inherits the mask and only sigwait below ever sees these signals.
  const sigset_t signals = shutdown_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  service::daemon_config_t config = o.config.empty() ? service::daemon_config_t{} : service::load_daemon_config(o.config);
  if (!o.listen.empty()) {
    service::parse_listen_address(o.listen);  // rejects a malformed address before anything starts
    config.listen = o.listen;
  }
  if (!o.log_level.empty()) config.log_level = o.log_level;
  service::configure_logging(config.log_level, config.log_format);
  spdlog::info("cuzk daemon starting (config: {})", o.config.empty() ? "built-in defaults" : o.config);

  service::daemon_t daemon(config);
  int sig = 0;
  sigwait(&signals, &sig);
  spdlog::info("{} received: draining (send it again to exit at once)", sig == SIGTERM ? "SIGTERM" : "SIGINT");
  // A second signal while draining means "now": the operator chose to lose in-flight work.
  std::jthread impatient([&signals](std::stop_token stop) {
    timespec slice{0, 200'000'000};
    while (!stop.stop_requested()) {
      if (sigtimedwait(&signals, nullptr, &slice) > 0) {
        spdlog::warn("second signal: exiting without finishing in-flight jobs");
        spdlog::default_logger()->flush();
        std::_Exit(exit_internal);
      }
    }
  });
  daemon.shutdown();
  return exit_ok;
}

}  // namespace

command_t add_daemon_command(CLI::App& root) {
  auto o = std::make_shared<daemon_options>();
  auto* app = root.add_subcommand("daemon", "Run the proving daemon (gRPC cuzk.v1.ProvingEngine); SIGTERM/SIGINT drain and exit 0");
  app->add_option("--config,-c", o->config, "TOML configuration (see config/cuzk.example.toml); default: built-in defaults")
      ->check(CLI::ExistingFile);
  app->add_option("--listen,-l", o->listen, "Listen address, overrides daemon.listen: unix:///path or IP:port");
  app->add_option("--log-level", o->log_level, "trace, debug, info, warn, error, critical or off (overrides logging.level)")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  return {app, [o] { return run_daemon(*o); }};
}

}  // namespace cuzk::cli
