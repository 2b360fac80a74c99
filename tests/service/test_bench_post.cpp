// `cuzk bench --load-vanilla`'s loop (run_bench_under_load) on an in-process
// engine with small built-in circuits standing in for PoSt (tiny) and the
// PoRep stream (hash-chain): the idle proofs run one at a time, the loaded
// ones start after the first stream job returned and each meets partitions
// in flight, the stream keeps its slots busy and drains, the report states
// both latencies on labelled lines; a stream request the engine refuses
// stops the run with that error.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <tuple>

#include "circuits/circuit_registry.hpp"
#include "engine/invalid_request.hpp"
#include "groth16/groth16.hpp"
#include "service/bench_runner.hpp"
#include "test_seed.hpp"

namespace cuzk::service {
namespace {

constexpr uint64_t stream_rows = 1 << 10;

class BenchUnderLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    engine::engine_config_t cfg;
    cfg.total_budget = uint64_t(2) << 30;
    cfg.synthesis_threads = 2;
    cfg.gpu_workers_per_device = 1;
    engine_ = std::make_unique<engine::engine_t>(cfg);
    groth16::seeded_rng rng(test::seed("BenchUnderLoad setup"));
    const std::string stream_id = "hash-chain-" + std::to_string(stream_rows);
    for (const auto& [name, size, id] :
         {std::tuple{"tiny", uint64_t(0), std::string("tiny")}, std::tuple{"hash-chain", stream_rows, stream_id}}) {
      auto circuit = circuits::make_circuit(name, size);
      engine_->register_parameters(id, std::make_shared<const groth16::parameters_t>(groth16::generate_parameters(
                                           *circuit, groth16::toxic_waste_t::random(rng))));
    }
    target_ = make_engine_target(*engine_);
    post_.circuit = "tiny";
    post_.proofs = 3;
    post_.concurrency = 3;  // ignored: one at a time in both phases
    load_.stream.circuit = "hash-chain";
    load_.stream.size = stream_rows;
    load_.stream.partitions = 2;
    load_.stream.concurrency = 2;
    load_.stream.sample_interval = std::chrono::milliseconds(5);
  }
  void TearDown() override { engine_->stop(); }

  std::unique_ptr<engine::engine_t> engine_;
  std::unique_ptr<proving_target_t> target_;
  bench_options_t post_;
  bench_load_options_t load_;
};

void expect_one_at_a_time(const std::vector<bench_proof_t>& proofs) {
  for (size_t i = 1; i < proofs.size(); ++i) EXPECT_GE(proofs[i].submit_ms, proofs[i - 1].done_ms) << i;
}

TEST_F(BenchUnderLoad, IdleThenLoadedWithLabelledLines) {
  std::ostringstream progress;
  const auto r = run_bench_under_load(*target_, post_, load_, &progress);

  ASSERT_EQ(r.idle.proofs.size(), 3u);
  ASSERT_EQ(r.loaded.proofs.size(), 3u);
  EXPECT_EQ(r.idle.completed(), 3u);
  EXPECT_EQ(r.loaded.completed(), 3u);
  expect_one_at_a_time(r.idle.proofs);
  expect_one_at_a_time(r.loaded.proofs);
  for (const auto& p : r.idle.proofs) EXPECT_FALSE(p.met.has_value());

  // Warm = the first stream job returned before the first loaded PoSt went in.
  ASSERT_FALSE(r.stream.proofs.empty());
  const double first_stream_return = r.stream.proofs.front().done_ms;
  EXPECT_LE(first_stream_return, r.loaded_start_ms);
  EXPECT_LE(r.loaded_start_ms, r.loaded.proofs.front().submit_ms);
  EXPECT_GE(r.loaded_end_ms, r.loaded.proofs.back().done_ms);
  for (const auto& p : r.loaded.proofs) {
    ASSERT_TRUE(p.met.has_value());
    EXPECT_GT(p.met->synthesizing + p.met->queued + p.met->on_gpu + p.met->pending_finalize, 0)
        << "a loaded proof was submitted to an idle pipeline";
    EXPECT_EQ(p.result.proof.size(), groth16::proof_size);
  }
  // Drained: every stream job returned, each a completed proof of both partitions.
  EXPECT_EQ(r.stream.completed(), r.stream.proofs.size());
  EXPECT_GE(r.stream.proofs.size(), 2u);  // the first one, and the other slot's that was in flight
  for (const auto& p : r.stream.proofs) EXPECT_EQ(p.result.proof.size(), 2 * groth16::proof_size);
  EXPECT_LE(r.stream.proofs.back().done_ms, r.stream.elapsed_ms);
  EXPECT_LE(r.stream_completed_in_window(), r.stream.completed());
  EXPECT_FALSE(r.stream.samples.empty());
  EXPECT_EQ(engine_->status().gauges.synthesizing + engine_->status().gauges.queued, 0);

  const std::string text = format_load_report(r);
  const std::regex idle_line(R"(\ntiny idle: p50 [0-9.]+ ms  min [0-9.]+  p90 [0-9.]+  max [0-9.]+)");
  const std::regex loaded_line(R"(\ntiny under load: p50 [0-9.]+ ms .*\(3 of 3 proofs\); 3 of 3 met a busy pipeline)");
  EXPECT_TRUE(std::regex_search(text, idle_line)) << text;
  EXPECT_TRUE(std::regex_search(text, loaded_line)) << text;
  EXPECT_NE(text.find("load stream (hash-chain) throughput: 2 in flight"), std::string::npos) << text;
  EXPECT_NE(text.find("=== tiny under load run"), std::string::npos) << text;
  EXPECT_NE(progress.str().find("under load [3/3] completed"), std::string::npos) << progress.str();

  const auto json = bench_timeline_json({r.idle, r.loaded, r.stream});
  ASSERT_EQ(json["runs"].size(), 3u);
  EXPECT_EQ(json["runs"][1]["label"], "tiny under load");
}

TEST_F(BenchUnderLoad, FixedWarmupWaitsThatLong) {
  post_.proofs = 1;
  load_.warmup = std::chrono::milliseconds(300);
  const auto r = run_bench_under_load(*target_, post_, load_, nullptr);
  EXPECT_EQ(r.loaded.completed(), 1u);
  EXPECT_GE(r.loaded_start_ms, 300.0);
}

TEST_F(BenchUnderLoad, RefusedStreamRequestStopsTheRun) {
  post_.proofs = 1;
  load_.stream.circuit = "no-such-circuit";
  EXPECT_THROW(run_bench_under_load(*target_, post_, load_, nullptr), engine::invalid_request);
}

}  // namespace
}  // namespace cuzk::service
