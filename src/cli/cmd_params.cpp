// cuzk params check [DIR] [--all]
// Checks Filecoin's official parameter files in DIR (default
// $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters)
// against the manifest compiled in (parameters.json): each present file's
// BLAKE2b-512 digest. Exit 0 when every present file matches, 2 when one is
// corrupt or unreadable (named on stderr), 1 when the only mismatches are
// development parameters that `cuzk setup --official-names` wrote.
#include <filesystem>
#include <memory>
#include <string>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "filecoin/parameter_digest.hpp"
#include "filecoin/parameter_manifest_t.hpp"

namespace cuzk::cli {
namespace {

struct params_options {
  std::string dir;
  bool all = false;
  CLI::App* check = nullptr;
};

std::string size_name(std::uint64_t b) {
  if (b >= (1ull << 30) && b % (1ull << 30) == 0) return fmt::format("{}GiB", b >> 30);
  if (b >= (1ull << 20) && b % (1ull << 20) == 0) return fmt::format("{}MiB", b >> 20);
  if (b >= (1ull << 10) && b % (1ull << 10) == 0) return fmt::format("{}KiB", b >> 10);
  return fmt::format("{}B", b);
}

std::string bytes_name(std::uint64_t b) {
  if (b >= 1'000'000'000) return fmt::format("{:.1f} GB", double(b) / 1e9);
  if (b >= 1'000'000) return fmt::format("{:.1f} MB", double(b) / 1e6);
  if (b >= 1'000) return fmt::format("{:.1f} kB", double(b) / 1e3);
  return fmt::format("{} B", b);
}

int run_check(const params_options& o) {
  using filecoin::file_status_t;
  const std::string dir = o.dir.empty() ? filecoin::default_parameter_cache() : o.dir;
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    return report_error(fmt::format("parameter directory {} does not exist{}", dir,
                                    o.dir.empty() ? " (the default: $FIL_PROOFS_PARAMETER_CACHE, else "
                                                    "/var/tmp/filecoin-proof-parameters; or give DIR)"
                                                  : ""));
  }
  const auto& manifest = filecoin::parameter_manifest_t::official();
  fmt::print("parameter directory: {}\n", dir);
  std::fflush(stdout);
  stopwatch sw;
  const auto r = filecoin::check_parameter_dir(dir, manifest);
  const double ms = sw.lap();

  std::uint64_t hashed = 0;
  for (const auto& f : r.files) {
    if (f.status == file_status_t::missing && !o.all) continue;
    const auto& e = *f.entry;
    fmt::print("  {:<11} {:>6}  {:>9}  {}\n", to_string(f.status), size_name(e.sector_size),
               f.status == file_status_t::missing ? "" : bytes_name(f.bytes), e.name);
    switch (f.status) {
      case file_status_t::corrupt:
        fmt::print("              digest {}, parameters.json: {} (damaged, truncated, or not the ceremony's file)\n",
                   f.got, e.digest);
        break;
      case file_status_t::development:
        fmt::print("              development parameters (cuzk setup), not the ceremony's: digest {}, "
                   "parameters.json: {}\n",
                   f.got, e.digest);
        break;
      case file_status_t::unreadable: fmt::print("              {}\n", f.error); break;
      default: break;
    }
    if (f.status != file_status_t::missing && f.status != file_status_t::unreadable) hashed += f.bytes;
  }
  const std::size_t ok = r.count(file_status_t::ok), corrupt = r.count(file_status_t::corrupt),
                    dev = r.count(file_status_t::development), unreadable = r.count(file_status_t::unreadable),
                    missing = r.count(file_status_t::missing);
  fmt::print("{} present: {} ok, {} corrupt, {} development, {} unreadable; {} of {} missing{}",
             r.files.size() - missing, ok, corrupt, dev, unreadable, missing, r.files.size(),
             missing && !o.all ? " (--all lists them)" : "");
  if (r.others) fmt::print("; {} other file{} ignored", r.others, r.others == 1 ? "" : "s");
  fmt::print("\n");
  if (hashed) fmt::print("hashed {} in {:.1f} s\n", bytes_name(hashed), ms / 1000);

  std::string bad;
  for (const auto& f : r.files) {
    if (f.status == file_status_t::corrupt || f.status == file_status_t::unreadable) {
      bad += fmt::format("\n  {} ({})", (std::filesystem::path(dir) / f.entry->name).string(),
                         f.status == file_status_t::corrupt ? "digest mismatch" : f.error);
    }
  }
  if (!bad.empty()) {
    return report_error(fmt::format("{} parameter file{} not as parameters.json says:{}", corrupt + unreadable,
                                    corrupt + unreadable == 1 ? " is" : "s are", bad));
  }
  if (dev) {
    fmt::print(stderr, "warning: {} file{} under official names {} development parameters, not the ceremony's\n", dev,
               dev == 1 ? "" : "s", dev == 1 ? "is" : "are");
    return exit_invalid;
  }
  return exit_ok;
}

}  // namespace

command_t add_params_command(CLI::App& root) {
  auto o = std::make_shared<params_options>();
  auto* app = root.add_subcommand("params", "Filecoin's official parameter files (parameters.json)");
  app->require_subcommand(1);
  o->check = app->add_subcommand(
      "check",
      "Check each official parameter file present in DIR against the digests of parameters.json "
      "(exit 0: all present ok; 2: one is corrupt or unreadable; 1: only development parameters differ)");
  o->check->add_option("dir", o->dir,
                       "Parameter directory (default: $FIL_PROOFS_PARAMETER_CACHE, else "
                       "/var/tmp/filecoin-proof-parameters)");
  o->check->add_flag("--all", o->all, "List the missing files too");
  return {app, [o] { return o->check->parsed() ? run_check(*o) : report_error("params: no subcommand given"); }};
}

}  // namespace cuzk::cli
