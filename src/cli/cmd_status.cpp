// cuzk status [--daemon ADDR]
#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/service_support.hpp"
#include "service/client_t.hpp"

namespace cuzk::cli {
namespace {

int run_status(const std::string& address) {
  service::client_t client(address);
  auto s = client.status();
  using service::format_size;
  fmt::print("daemon {}: up {} s\n", address, s.uptime_seconds());
  fmt::print("proofs: {} completed, {} failed, {} cancelled; {} job(s) queued\n", s.total_proofs_completed(),
             s.total_proofs_failed(), s.total_proofs_cancelled(), s.queued_jobs());
  fmt::print("memory: budget {}, reserved {}; RSS {} (peak {})\n", format_size(s.memory_budget_bytes()),
             format_size(s.memory_reserved_bytes()), format_size(s.rss_bytes()), format_size(s.peak_rss_bytes()));
  fmt::print("pipeline: {} synthesis workers, {} prove workers; partitions: {} synthesizing, {} queued, {} proving, "
             "{} finalizing\n",
             s.synthesis_workers(), s.prove_workers(), s.partitions_synthesizing(), s.partitions_queued(),
             s.partitions_proving(), s.partitions_finalizing());
  for (const auto& g : s.gpus()) {
    const std::string vram = g.vram_total_bytes() ? fmt::format(", {} free of {}", format_size(g.vram_free_bytes()),
                                                                format_size(g.vram_total_bytes()))
                                                  : std::string();
    fmt::print("  [{}] {}{} — {}\n", g.ordinal(), g.name(), vram,
               g.current_job_id().empty() ? std::string("idle")
                                          : fmt::format("proving {} ({})", g.current_proof_kind(), g.current_job_id()));
  }
  for (const auto& p : s.loaded_srs()) {
    fmt::print("  parameters {}: {}, in use by {}\n", p.circuit_id(), format_size(p.size_bytes()), p.ref_count());
  }
  for (const auto& q : s.queues()) {
    fmt::print("  queue {}: {} pending, {} in progress\n", q.proof_kind(), q.pending(), q.in_progress());
  }
  return exit_ok;
}

}  // namespace

command_t add_status_command(CLI::App& root) {
  auto address = std::make_shared<std::string>();
  auto* app = root.add_subcommand("status", "Ask a running daemon for its state (GetStatus)");
  add_daemon_option(*app, *address, true);
  return {app, [address] { return run_rpc_guarded([&] { return run_status(*address); }); }};
}

}  // namespace cuzk::cli
