// Daemon configuration: documented defaults, every key read, malformed values
// rejected with a message naming the key, unknown keys reported.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "service/config_error.hpp"
#include "service/config_values.hpp"
#include "service/daemon_config_t.hpp"

namespace cuzk::service {
namespace {

constexpr uint64_t GiB = uint64_t(1) << 30;

// Expects parse_daemon_config to throw config_error whose message holds every fragment.
void expect_rejected(const std::string& toml, std::initializer_list<std::string> fragments) {
  try {
    parse_daemon_config(toml, "test.toml");
    ADD_FAILURE() << "accepted: " << toml;
  } catch (const config_error& e) {
    for (const auto& f : fragments) EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
  }
}

TEST(ServiceConfig, EmptyFileGivesDocumentedDefaults) {
  auto c = parse_daemon_config("", "empty.toml");
  EXPECT_EQ(c.listen, "");
  EXPECT_EQ(c.resolved_listen(), default_listen_address());
  EXPECT_EQ(c.resolved_listen().rfind("unix:///", 0), 0u);
  EXPECT_FALSE(c.total_budget.has_value());
  EXPECT_EQ(c.safety_margin, 5 * GiB);
  EXPECT_EQ(c.gpu_workers_per_device, 2u);
  EXPECT_EQ(c.critical_workers_per_device, 1u);
  EXPECT_EQ(c.param_residency, "auto");
  EXPECT_EQ(c.device_reserve, 0u);
  EXPECT_FALSE(c.gpu_options().residency.forced);
  EXPECT_TRUE(c.pin_witness);
  EXPECT_TRUE(c.gpu_options().pin_witness);
  EXPECT_EQ(c.gpu_options().msm_threads, 0u);
  EXPECT_EQ(c.gpu_options().h_window_bits, 0u);
  EXPECT_TRUE(c.devices.empty());
  EXPECT_EQ(c.synthesis_threads, 0u);
  EXPECT_EQ(c.compact_witness, "auto");
  EXPECT_EQ(c.engine_config().compact_witness, cuzk::engine::engine_config_t::compact_t::automatic);
  EXPECT_EQ(c.gpu_queue_depth, 2u);
  EXPECT_EQ(c.log_level, "info");
  EXPECT_EQ(c.log_format, "text");
  EXPECT_TRUE(c.verify_proofs);
  EXPECT_EQ(c.result_retention, std::chrono::minutes(10));
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_FALSE(c.critical_reserve.has_value());  // auto
  auto e = c.engine_config();
  EXPECT_EQ(e.total_budget, 0u);  // auto
  EXPECT_FALSE(e.critical_reserve.has_value());
  EXPECT_EQ(e.result_retention_s, 600u);
  EXPECT_EQ(e.critical_workers_per_device, 1u);
}

TEST(ServiceConfig, CriticalWorkersCanBeTurnedOff) {
  const auto c = parse_daemon_config("[gpus]\ncritical_workers_per_device = 0\n", "t");
  EXPECT_EQ(c.critical_workers_per_device, 0u);
  EXPECT_EQ(c.engine_config().critical_workers_per_device, 0u);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(ServiceConfig, CriticalReserveIsAutoASizeOrOff) {
  auto c = parse_daemon_config("[memory]\ncritical_reserve = \"auto\"\n", "t");
  EXPECT_FALSE(c.critical_reserve.has_value());
  c = parse_daemon_config("[memory]\ncritical_reserve = \"2GiB\"\n", "t");
  EXPECT_EQ(c.critical_reserve, 2 * GiB);
  EXPECT_EQ(c.engine_config().critical_reserve, 2 * GiB);
  c = parse_daemon_config("[memory]\ncritical_reserve = 0\n", "t");
  EXPECT_EQ(c.engine_config().critical_reserve, uint64_t(0));
  EXPECT_TRUE(c.warnings.empty());
  expect_rejected("[memory]\ncritical_reserve = \"some\"\n", {"memory.critical_reserve"});
  expect_rejected("[memory]\ncritical_reserve = -1\n", {"memory.critical_reserve", "negative"});
}

TEST(ServiceConfig, ParamCacheDefaultsToFilecoinsDirectory) {
  const char* old = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
  const std::string saved = old ? old : "";
  ::setenv("FIL_PROOFS_PARAMETER_CACHE", "/srv/fil-params", 1);
  EXPECT_EQ(parse_daemon_config("", "empty.toml").engine_config().param_cache, "/srv/fil-params");
  EXPECT_EQ(parse_daemon_config("[srs]\nparam_cache = \"/p\"\n", "p.toml").engine_config().param_cache, "/p");
  ::unsetenv("FIL_PROOFS_PARAMETER_CACHE");
  EXPECT_EQ(parse_daemon_config("", "empty.toml").engine_config().param_cache, "/var/tmp/filecoin-proof-parameters");
  if (old) ::setenv("FIL_PROOFS_PARAMETER_CACHE", saved.c_str(), 1);
}

TEST(ServiceConfig, EveryKeyIsRead) {
  auto c = parse_daemon_config(R"(
[daemon]
listen = "127.0.0.1:9820"
[memory]
total_budget = "96GiB"
safety_margin = "2 GiB"
[gpus]
devices = [0, 2]
gpu_workers_per_device = 3
critical_workers_per_device = 2
param_residency = "pinned"
device_reserve = "20GiB"
pin_witness = false
msm_threads = 524288
h_window_bits = 22
[synthesis]
threads = 12
compact_witness = "on"
[pipeline]
gpu_queue_depth = 4
max_attempts = 5
finalizer_threads = 6
[srs]
param_cache = "/data/params"
preload = ["tiny"]
[logging]
level = "debug"
format = "json"
[proofs]
verify = false
[results]
retention = "90s"
)", "full.toml");
  EXPECT_EQ(c.listen, "127.0.0.1:9820");
  EXPECT_EQ(c.total_budget, 96 * GiB);
  EXPECT_EQ(c.safety_margin, 2 * GiB);
  EXPECT_EQ(c.devices, (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(c.gpu_workers_per_device, 3u);
  EXPECT_EQ(c.critical_workers_per_device, 2u);
  EXPECT_EQ(c.param_residency, "pinned");
  EXPECT_EQ(c.device_reserve, 20 * GiB);
  const auto g = c.gpu_options();
  EXPECT_EQ(g.residency.forced, cuzk::gpu::residency_t::pinned);
  EXPECT_EQ(g.residency.device_reserve, 20 * GiB);
  EXPECT_EQ(g.proofs_in_flight, 3u);
  EXPECT_TRUE(g.overlap);
  EXPECT_FALSE(c.pin_witness);
  EXPECT_FALSE(g.pin_witness);
  EXPECT_EQ(g.msm_threads, size_t(1) << 19);
  EXPECT_EQ(g.h_window_bits, 22u);
  EXPECT_EQ(c.synthesis_threads, 12u);
  EXPECT_EQ(c.compact_witness, "on");
  EXPECT_EQ(c.engine_config().compact_witness, cuzk::engine::engine_config_t::compact_t::on);
  EXPECT_EQ(parse_daemon_config("[synthesis]\ncompact_witness = \"off\"\n", "t").engine_config().compact_witness,
            cuzk::engine::engine_config_t::compact_t::off);
  EXPECT_EQ(c.gpu_queue_depth, 4u);
  EXPECT_EQ(c.max_attempts, 5u);
  EXPECT_EQ(c.finalizer_threads, 6u);
  EXPECT_EQ(c.param_cache, "/data/params");
  EXPECT_EQ(c.srs_preload, (std::vector<std::string>{"tiny"}));
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.log_format, "json");
  EXPECT_FALSE(c.verify_proofs);
  EXPECT_EQ(c.result_retention, std::chrono::seconds(90));
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
  auto e = c.engine_config();
  EXPECT_EQ(e.total_budget, 96 * GiB);
  EXPECT_EQ(e.devices, (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(e.queue_depth_per_worker, 4u);
  EXPECT_EQ(e.critical_workers_per_device, 2u);
  EXPECT_EQ(e.param_cache, "/data/params");
  EXPECT_FALSE(e.verify_proofs);
  EXPECT_EQ(e.result_retention_s, 90u);
}

TEST(ServiceConfig, AutoBudgetAndIntegerForms) {
  auto c = parse_daemon_config("[memory]\ntotal_budget = \"auto\"\nsafety_margin = 1048576\n[results]\nretention = 30\n", "t");
  EXPECT_FALSE(c.total_budget.has_value());
  EXPECT_EQ(c.safety_margin, 1048576u);
  EXPECT_EQ(c.result_retention, std::chrono::seconds(30));
}

TEST(ServiceConfig, MalformedValuesAreRejectedWithTheKey) {
  expect_rejected("[memory]\ntotal_budget = \"12 GB?\"\n", {"test.toml", "memory.total_budget", "unknown unit"});
  expect_rejected("[memory]\ntotal_budget = \"lots\"\n", {"memory.total_budget", "expected a number"});
  expect_rejected("[memory]\ntotal_budget = \"0\"\n", {"memory.total_budget", "positive"});
  expect_rejected("[memory]\nsafety_margin = -5\n", {"memory.safety_margin", "negative"});
  expect_rejected("[memory]\nsafety_margin = true\n", {"memory.safety_margin"});
  expect_rejected("[results]\nretention = \"5 minutes\"\n", {"results.retention", "unknown unit"});
  expect_rejected("[results]\nretention = \"0s\"\n", {"results.retention", "at least 1s"});
  expect_rejected("[gpus]\ndevices = \"0,1\"\n", {"gpus.devices", "array"});
  expect_rejected("[gpus]\ndevices = [0, -1]\n", {"gpus.devices", "out of range"});
  expect_rejected("[gpus]\ngpu_workers_per_device = 0\n", {"gpus.gpu_workers_per_device", "at least 1"});
  expect_rejected("[gpus]\ncritical_workers_per_device = -1\n", {"gpus.critical_workers_per_device", "out of range"});
  expect_rejected("[gpus]\ncritical_workers_per_device = 5\n", {"gpus.critical_workers_per_device", "0..4"});
  expect_rejected("[gpus]\ncritical_workers_per_device = \"1\"\n", {"gpus.critical_workers_per_device", "integer"});
  expect_rejected("[gpus]\nparam_residency = \"mmap\"\n", {"gpus.param_residency", "mmap"});
  expect_rejected("[gpus]\ndevice_reserve = \"lots\"\n", {"gpus.device_reserve"});
  expect_rejected("[gpus]\nmsm_threads = 100000\n", {"gpus.msm_threads", "power of two"});
  expect_rejected("[gpus]\nmsm_threads = 2048\n", {"gpus.msm_threads", "4096"});
  expect_rejected("[gpus]\nmsm_threads = 8388608\n", {"gpus.msm_threads", "a power of two from 4096 to 4194304"});
  expect_rejected("[gpus]\nh_window_bits = 23\n", {"gpus.h_window_bits", "0 (automatic) or 2 to 22"});
  expect_rejected("[synthesis]\nthreads = \"8\"\n", {"synthesis.threads", "integer"});
  expect_rejected("[synthesis]\ncompact_witness = \"yes\"\n", {"synthesis.compact_witness", "'yes'"});
  expect_rejected("[proofs]\nverify = \"yes\"\n", {"proofs.verify", "true or false"});
  expect_rejected("[logging]\nlevel = \"loud\"\n", {"logging.level", "'loud'"});
  expect_rejected("[logging]\nformat = \"xml\"\n", {"logging.format"});
  expect_rejected("[daemon]\nlisten = \"unix://relative.sock\"\n", {"daemon.listen", "absolute"});
  expect_rejected("[daemon]\nlisten = \"localhost:9820\"\n", {"daemon.listen", "numeric"});
  expect_rejected("[daemon]\nlisten = \"127.0.0.1:70000\"\n", {"daemon.listen", "port"});
  expect_rejected("[daemon\nlisten = 1\n", {"test.toml:1"});  // TOML syntax error, with its position
}

TEST(ServiceConfig, UnknownAndIneffectiveKeysAreWarned) {
  auto c = parse_daemon_config(R"(
[daemon]
listn = "x"
[memory]
pinned_budget = "10GiB"
[scheduler]
max_batch_size = 2
[colour]
x = 1
)", "w.toml");
  ASSERT_EQ(c.warnings.size(), 4u);
  auto has = [&](const std::string& s) {
    for (const auto& w : c.warnings) {
      if (w.find(s) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(has("unknown key daemon.listn"));
  EXPECT_TRUE(has("memory.pinned_budget has no effect"));
  EXPECT_TRUE(has("scheduler.max_batch_size has no effect"));
  EXPECT_TRUE(has("unknown key colour.x"));
}

TEST(ServiceConfig, SizeAndDurationSyntax) {
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("4096B"), 4096u);
  EXPECT_EQ(parse_size("64GiB"), 64 * GiB);
  EXPECT_EQ(parse_size("64 gib"), 64 * GiB);
  EXPECT_EQ(parse_size("1.5GiB"), 3 * GiB / 2);
  EXPECT_EQ(parse_size("512MiB"), uint64_t(512) << 20);
  EXPECT_EQ(parse_size("100MB"), 100'000'000u);
  EXPECT_EQ(parse_size("2T"), uint64_t(2) << 40);
  for (const char* bad : {"", "GiB", "-1GiB", "1e9", "0x10", "12 GB?", "1.5", "10 parsecs", "1..5G", "inf"}) {
    EXPECT_THROW(parse_size(bad), config_error) << bad;
  }
  EXPECT_EQ(parse_duration("500ms"), std::chrono::milliseconds(500));
  EXPECT_EQ(parse_duration("30s"), std::chrono::seconds(30));
  EXPECT_EQ(parse_duration("5m"), std::chrono::minutes(5));
  EXPECT_EQ(parse_duration("2h"), std::chrono::hours(2));
  EXPECT_EQ(parse_duration("1.5s"), std::chrono::milliseconds(1500));
  EXPECT_EQ(parse_duration("45"), std::chrono::seconds(45));
  for (const char* bad : {"", "m", "5M", "-3s", "5 mins", "1e3"}) {
    EXPECT_THROW(parse_duration(bad), config_error) << bad;
  }
}

TEST(ServiceConfig, ListenAddresses) {
  auto u = parse_listen_address("unix:///run/cuzk/cuzk.sock");
  EXPECT_TRUE(u.is_unix);
  EXPECT_EQ(u.path, "/run/cuzk/cuzk.sock");
  EXPECT_EQ(u.grpc_target(), "unix:///run/cuzk/cuzk.sock");
  auto t = parse_listen_address("127.0.0.1:9820");
  EXPECT_FALSE(t.is_unix);
  EXPECT_EQ(t.port, 9820);
  EXPECT_TRUE(t.is_loopback());
  auto v6 = parse_listen_address("[::1]:9820");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_TRUE(v6.is_loopback());
  EXPECT_EQ(v6.grpc_target(), "[::1]:9820");
  EXPECT_FALSE(parse_listen_address("0.0.0.0:9820").is_loopback());
  EXPECT_THROW(parse_listen_address("unix:///" + std::string(200, 'a')), config_error);
  EXPECT_THROW(parse_listen_address("9820"), config_error);
}

TEST(ServiceConfig, ExampleFileLoadsWithoutWarnings) {
  auto c = load_daemon_config(std::string(CUZK_SOURCE_DIR) + "/config/cuzk.example.toml");
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
  EXPECT_THROW(load_daemon_config("/nonexistent/cuzk.toml"), config_error);
}

}  // namespace
}  // namespace cuzk::service
