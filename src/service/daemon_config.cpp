#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "filecoin/parameter_manifest_t.hpp"
#include "service/config_error.hpp"
#include "service/config_values.hpp"
#include "service/daemon_config_t.hpp"

namespace cuzk::service {
namespace {

// Keys of the Rust daemon's file that mean nothing here: accepted so a Curio
// cuzk.toml loads, but each one present is reported with the reason.
const std::map<std::string, std::string, std::less<>> ineffective_keys = {
    {"memory.pinned_budget", "deprecated in the Rust daemon too; no effect"},
    {"memory.working_memory_budget", "deprecated in the Rust daemon too; no effect"},
    {"memory.eviction_min_idle", "parameters stay loaded until EvictSRS"},
    {"gpus.gpu_threads", "the prover has no separate host thread pool; see synthesis.threads"},
    {"pipeline.enabled", "the pipeline is always on; `cuzk bench --sequential` measures one proof at a time"},
    {"pipeline.max_parallel_synthesis", "use synthesis.threads; memory.total_budget bounds what is in flight"},
    {"pipeline.max_gpu_queue_depth", "use pipeline.gpu_queue_depth (a fixed depth, no pacer)"},
    {"scheduler.max_batch_size", "cuzk does not batch sectors; partitions of all jobs share the pipeline"},
    {"scheduler.max_batch_wait_ms", "cuzk does not batch sectors"},
    {"scheduler.sort_by_type", "no effect (never read by the Rust daemon either)"},
    {"synthesis.partition_workers", "concurrency follows from memory.total_budget"},
    {"pipeline.synthesis_lookahead", "concurrency follows from memory.total_budget"},
    {"pipeline.synthesis_concurrency", "concurrency follows from memory.total_budget"},
    {"pipeline.slot_size", "no slotted mode"},
};

// Walks the parsed table, converting and range-checking each known key and
// remembering which keys were read so the rest can be reported.
class config_reader {
 public:
  config_reader(const toml::table& root, std::string name) : root_(root), name_(std::move(name)) {}

  const toml::node* find(std::string_view section, std::string_view key) {
    known_.insert(fmt::format("{}.{}", section, key));
    const toml::table* sec = root_[section].as_table();
    return sec == nullptr ? nullptr : sec->get(key);
  }

  [[noreturn]] void fail(std::string_view section, std::string_view key, const std::string& why) const {
    throw config_error(fmt::format("{}: {}.{}: {}", name_, section, key, why));
  }

  void read(std::string_view sec, std::string_view key, std::string& out) {
    if (const auto* n = find(sec, key)) {
      if (!n->is_string()) fail(sec, key, "expected a string");
      out = n->as_string()->get();
    }
  }
  void read(std::string_view sec, std::string_view key, bool& out) {
    if (const auto* n = find(sec, key)) {
      if (!n->is_boolean()) fail(sec, key, "expected true or false");
      out = n->as_boolean()->get();
    }
  }
  void read(std::string_view sec, std::string_view key, uint32_t& out, uint32_t max = std::numeric_limits<uint32_t>::max()) {
    if (const auto* n = find(sec, key)) out = to_u32(sec, key, *n, max);
  }
  void read(std::string_view sec, std::string_view key, std::vector<uint32_t>& out) {
    if (const auto* n = find(sec, key)) {
      const auto* arr = n->as_array();
      if (arr == nullptr) fail(sec, key, "expected an array of device numbers, e.g. [0, 1]");
      out.clear();
      for (const auto& e : *arr) out.push_back(to_u32(sec, key, e, 1023));
    }
  }
  void read(std::string_view sec, std::string_view key, std::vector<std::string>& out) {
    if (const auto* n = find(sec, key)) {
      const auto* arr = n->as_array();
      if (arr == nullptr) fail(sec, key, "expected an array of strings");
      out.clear();
      for (const auto& e : *arr) {
        if (!e.is_string()) fail(sec, key, "expected an array of strings");
        out.push_back(e.as_string()->get());
      }
    }
  }
  // A size is a string with a unit ("64GiB") or an integer byte count.
  std::optional<uint64_t> read_size(std::string_view sec, std::string_view key) {
    const auto* n = find(sec, key);
    if (n == nullptr) return std::nullopt;
    if (n->is_integer()) {
      int64_t v = n->as_integer()->get();
      if (v < 0) fail(sec, key, "a size cannot be negative");
      return static_cast<uint64_t>(v);
    }
    if (!n->is_string()) fail(sec, key, "expected a size such as \"64GiB\"");
    try {
      return parse_size(n->as_string()->get());
    } catch (const config_error& e) {
      fail(sec, key, e.what());
    }
  }
  // A duration is a string with a unit ("5m") or an integer number of seconds.
  void read_duration(std::string_view sec, std::string_view key, std::chrono::milliseconds& out) {
    const auto* n = find(sec, key);
    if (n == nullptr) return;
    if (n->is_integer()) {
      int64_t v = n->as_integer()->get();
      if (v < 0 || v > int64_t(1) << 40) fail(sec, key, "expected a non-negative number of seconds");
      out = std::chrono::seconds(v);
      return;
    }
    if (!n->is_string()) fail(sec, key, "expected a duration such as \"5m\"");
    try {
      out = parse_duration(n->as_string()->get());
    } catch (const config_error& e) {
      fail(sec, key, e.what());
    }
  }

  std::vector<std::string> unknown_key_warnings() const {
    std::vector<std::string> out;
    for (const auto& [sec_key, sec_node] : root_) {
      const auto* sec = sec_node.as_table();
      if (sec == nullptr) {
        out.push_back(fmt::format("{}: top-level key '{}' is not in a section; ignored", name_, sec_key.str()));
        continue;
      }
      for (const auto& [key, node] : *sec) {
        std::string full = fmt::format("{}.{}", sec_key.str(), key.str());
        if (known_.count(full)) continue;
        if (auto it = ineffective_keys.find(full); it != ineffective_keys.end()) {
          out.push_back(fmt::format("{}: {} has no effect: {}", name_, full, it->second));
        } else {
          out.push_back(fmt::format("{}: unknown key {}; ignored", name_, full));
        }
      }
    }
    return out;
  }

 private:
  uint32_t to_u32(std::string_view sec, std::string_view key, const toml::node& n, uint32_t max) const {
    if (!n.is_integer()) fail(sec, key, "expected an integer");
    int64_t v = n.as_integer()->get();
    if (v < 0 || v > int64_t(max)) fail(sec, key, fmt::format("{} is out of range 0..{}", v, max));
    return static_cast<uint32_t>(v);
  }

  const toml::table& root_;
  std::string name_;
  std::set<std::string, std::less<>> known_;
};

void check_choice(config_reader& r, std::string_view sec, std::string_view key, const std::string& v,
                  std::initializer_list<std::string_view> allowed) {
  for (auto a : allowed) {
    if (v == a) return;
  }
  std::string list;
  for (auto a : allowed) list += fmt::format("{}{}", list.empty() ? "" : ", ", a);
  r.fail(sec, key, fmt::format("'{}' is not one of {}", v, list));
}

// A TCP "IP:port" (no unix socket) for `key`, or a config error naming it.
void check_tcp_address(config_reader& r, std::string_view key, const std::string& value, std::string_view why_tcp) {
  listen_address_t a;
  try {
    a = parse_listen_address(value);
  } catch (const config_error& e) {
    r.fail("daemon", key, e.what());
  }
  if (a.is_unix) r.fail("daemon", key, fmt::format("'{}': expected a numeric IP:port ({})", value, why_tcp));
}

// [daemon] allow, tls_*, status_listen: who may reach the daemon, and how.
void read_access_keys(config_reader& r, daemon_config_t& c) {
  r.read("daemon", "allow", c.allow);
  try {
    (void)parse_allow_list(c.allow);
  } catch (const config_error& e) {
    r.fail("daemon", "allow", e.what());
  }
  r.read("daemon", "status_listen", c.status_listen);
  if (!c.status_listen.empty()) check_tcp_address(r, "status_listen", c.status_listen, "the HTTP listener is TCP only");
  r.read("daemon", "tls_listen", c.tls_listen);
  r.read("daemon", "tls_cert", c.tls_cert);
  r.read("daemon", "tls_key", c.tls_key);
  r.read("daemon", "tls_client_ca", c.tls_client_ca);
  if (c.tls_listen.empty()) {
    for (auto [key, value] : {std::pair<std::string_view, const std::string*>{"tls_cert", &c.tls_cert},
                              {"tls_key", &c.tls_key},
                              {"tls_client_ca", &c.tls_client_ca}}) {
      if (!value->empty()) r.fail("daemon", key, "is set but daemon.tls_listen is not (where should TLS listen?)");
    }
    return;
  }
  check_tcp_address(r, "tls_listen", c.tls_listen, "a unix socket is protected by its file permissions");
  if (c.tls_cert.empty()) r.fail("daemon", "tls_cert", "tls_listen needs the server certificate (a PEM file)");
  if (c.tls_key.empty()) r.fail("daemon", "tls_key", "tls_listen needs the server's private key (a PEM file)");
}

}  // namespace

std::vector<address_range_t> daemon_config_t::allow_ranges() const { return parse_allow_list(allow); }

std::string daemon_config_t::resolved_listen() const { return listen.empty() ? default_listen_address() : listen; }

std::string daemon_config_t::resolved_param_cache() const {
  if (!param_cache.empty()) return param_cache;
  // $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters: where
  // Filecoin tools (and the Rust daemon) keep the official files.
  return filecoin::default_parameter_cache();
}

engine::engine_config_t daemon_config_t::engine_config() const {
  engine::engine_config_t e;
  e.total_budget = total_budget.value_or(0);  // 0 = auto in the engine
  e.safety_margin = safety_margin;
  e.critical_reserve = critical_reserve;  // nullopt = auto in the engine
  e.synthesis_threads = synthesis_threads;
  e.compact_witness = engine::engine_config_t::compact_from(compact_witness);
  e.gpu_workers_per_device = gpu_workers_per_device;
  e.critical_workers_per_device = critical_workers_per_device;
  e.devices = devices;
  e.finalizer_threads = finalizer_threads;
  e.param_cache = resolved_param_cache();
  e.verify_proofs = verify_proofs;
  e.release_host_params = srs_release_host_copy;
  e.param_subgroup_checks = srs_subgroup_checks;
  e.result_retention_s = static_cast<uint32_t>(
      std::min<int64_t>(std::chrono::ceil<std::chrono::seconds>(result_retention).count(), UINT32_MAX));
  e.queue_depth_per_worker = gpu_queue_depth;
  e.max_attempts = max_attempts;
  return e;
}

groth16::gpu_prover_options_t daemon_config_t::gpu_options() const {
  groth16::gpu_prover_options_t o;
  o.residency = gpu::residency_policy_t::parse(param_residency, device_reserve);
  // Not counting critical_workers_per_device: they run only WinningPoSt, and
  // a PoRep circuit's reserve planned for one more of its own proofs would
  // keep ~24 GiB (6 x 2^27 scalars at 32 GiB) of its queries off the device.
  o.proofs_in_flight = gpu_workers_per_device;
  o.pin_witness = pin_witness;
  o.msm_scratch = groth16::parse_msm_scratch(msm_scratch);
  o.msm_threads = size_t(msm_threads);
  o.h_window_bits = h_window_bits;
  return o;
}

daemon_config_t parse_daemon_config(std::string_view toml_text, const std::string& name) {
  toml::table root;
  try {
    root = toml::parse(toml_text, name);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw config_error(fmt::format("{}:{}:{}: {}", name, where.line, where.column, e.description()));
  }
  config_reader r(root, name);
  daemon_config_t c;

  r.read("daemon", "listen", c.listen);
  if (!c.listen.empty()) {
    try {
      parse_listen_address(c.listen);
    } catch (const config_error& e) {
      r.fail("daemon", "listen", e.what());
    }
  }
  read_access_keys(r, c);

  if (const auto* n = r.find("memory", "total_budget"); n != nullptr && n->is_string() && n->as_string()->get() == "auto") {
    c.total_budget.reset();
  } else {
    c.total_budget = r.read_size("memory", "total_budget");
    if (c.total_budget == uint64_t(0)) r.fail("memory", "total_budget", "must be \"auto\" or a positive size");
  }
  if (auto m = r.read_size("memory", "safety_margin")) c.safety_margin = *m;
  if (const auto* n = r.find("memory", "critical_reserve");
      n != nullptr && n->is_string() && n->as_string()->get() == "auto") {
    c.critical_reserve.reset();
  } else if (auto m = r.read_size("memory", "critical_reserve")) {
    c.critical_reserve = *m;  // "0" turns it off
  }

  r.read("gpus", "backend", c.backend);
  check_choice(r, "gpus", "backend", c.backend, {"auto", "cpu", "cuda"});
  r.read("gpus", "devices", c.devices);
  r.read("gpus", "gpu_workers_per_device", c.gpu_workers_per_device, 16);
  if (c.gpu_workers_per_device == 0) r.fail("gpus", "gpu_workers_per_device", "must be at least 1");
  r.read("gpus", "critical_workers_per_device", c.critical_workers_per_device, 4);
  r.read("gpus", "param_residency", c.param_residency);
  if (auto m = r.read_size("gpus", "device_reserve")) c.device_reserve = *m;
  r.read("gpus", "pin_witness", c.pin_witness);
  r.read("gpus", "msm_scratch", c.msm_scratch);
  check_choice(r, "gpus", "msm_scratch", c.msm_scratch, {"auto", "per-query", "one-at-a-time"});
  r.read("gpus", "msm_threads", c.msm_threads);  // its range: check_msm_threads, one message
  try {
    groth16::check_msm_threads(c.msm_threads);
  } catch (const std::invalid_argument& e) {
    r.fail("gpus", "msm_threads", e.what());
  }
  r.read("gpus", "h_window_bits", c.h_window_bits);
  try {
    groth16::check_h_window_bits(c.h_window_bits);
  } catch (const std::invalid_argument& e) {
    r.fail("gpus", "h_window_bits", e.what());
  }
  try {
    (void)c.gpu_options();  // the one parser of the mode names
  } catch (const std::invalid_argument& e) {
    r.fail("gpus", "param_residency", e.what());
  }
  r.read("pipeline", "finalizer_threads", c.finalizer_threads, 4096);
  if (c.finalizer_threads == 0) r.fail("pipeline", "finalizer_threads", "must be at least 1");

  r.read("synthesis", "threads", c.synthesis_threads, 4096);
  r.read("synthesis", "compact_witness", c.compact_witness);
  check_choice(r, "synthesis", "compact_witness", c.compact_witness, {"auto", "on", "off"});

  r.read("pipeline", "gpu_queue_depth", c.gpu_queue_depth, 1024);
  if (c.gpu_queue_depth == 0) r.fail("pipeline", "gpu_queue_depth", "must be at least 1");
  r.read("pipeline", "max_attempts", c.max_attempts, 100);
  if (c.max_attempts == 0) r.fail("pipeline", "max_attempts", "must be at least 1");

  r.read("srs", "param_cache", c.param_cache);
  r.read("srs", "preload", c.srs_preload);
  r.read("srs", "release_host_copy", c.srs_release_host_copy);
  r.read("srs", "subgroup_checks", c.srs_subgroup_checks);

  r.read("logging", "level", c.log_level);
  check_choice(r, "logging", "level", c.log_level, {"trace", "debug", "info", "warn", "error", "critical", "off"});
  r.read("logging", "format", c.log_format);
  check_choice(r, "logging", "format", c.log_format, {"text", "json"});

  r.read("proofs", "verify", c.verify_proofs);

  r.read_duration("results", "retention", c.result_retention);
  if (c.result_retention < std::chrono::seconds(1)) r.fail("results", "retention", "must be at least 1s");

  c.warnings = r.unknown_key_warnings();
  return c;
}

daemon_config_t load_daemon_config(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw config_error(fmt::format("{}: cannot open the configuration file", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_daemon_config(text.str(), path);
}

}  // namespace cuzk::service
