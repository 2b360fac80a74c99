// engine_t end to end on the CPU backend with the tiny and small hash-chain
// circuits: proofs verify against the circuits' own inputs, priority/FIFO
// order, budget refusal, results retention, timeline, metrics, drain.
#include <filesystem>

#include "engine_test_support.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using namespace cuzk::engine::test_support;

TEST(engine_pipeline, concurrent_jobs_all_verify_in_partition_order) {
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.gpu_workers_per_device = 2;
  engine_t e(c);
  register_all(e);
  std::vector<job_request_t> reqs = {tiny_job({3, 5, 7}), chain_job(2, 11), tiny_job({13}, priority_t::high),
                                     chain_job(1, 17), tiny_job({19, 23})};
  std::vector<std::string> ids;
  for (const auto& r : reqs) ids.push_back(e.submit(r).job_id);
  for (size_t i = 0; i < reqs.size(); ++i) {
    auto res = e.await(ids[i]);
    EXPECT_EQ(res.job_id, ids[i]);
    EXPECT_EQ(res.partitions, expected_inputs(reqs[i]).size());
    expect_verifies(res, reqs[i]);
    EXPECT_GE(res.total_ms, res.queue_wait_ms);
  }
  // Swapping two partitions' proofs breaks verification: order is checked, not assumed.
  auto res = e.await(ids[0]);
  std::swap_ranges(res.proof.begin(), res.proof.begin() + 192, res.proof.begin() + 192);
  auto inputs = expected_inputs(reqs[0]);
  groth16::prepared_vk_t pvk(params_for("tiny")->vk);
  groth16::proof_t p;
  ASSERT_TRUE(groth16::decode_proof(std::span(res.proof).first(192), p).ok());
  EXPECT_FALSE(pvk.verify(p, inputs[0]));
  auto s = e.status();
  EXPECT_EQ(s.completed, reqs.size());
  EXPECT_EQ(s.failed, 0u);
  // The two ordinary workers, then the default critical one (ids from prove_workers on).
  EXPECT_EQ(s.prove_workers, 2u);
  ASSERT_EQ(s.workers.size(), 3u);
  EXPECT_EQ(s.workers[2].worker_id, 2u);
}

TEST(engine_pipeline, higher_priority_first_then_fifo_then_partition_order) {
  // Room for exactly one partition (reservations are held until finalize), so
  // the order in which partitions reach prove_start is the scheduler's order.
  const uint64_t budget = registered_params_bytes(false) + footprint_of(tiny_job({1})).full();
  auto gated = std::make_shared<gated_backend_t>(make_cpu_backend());
  gated->start_gate.close();
  engine_t e(small_config(budget), {gated, nullptr, nullptr});
  open_gates_on_exit guard{*gated};
  register_all(e, false);
  std::vector<std::string> ids;
  ids.push_back(e.submit(tiny_job({1000, 1001}, priority_t::critical)).job_id);
  ASSERT_TRUE(wait_until([&] { return gated->start_gate.waiting() == 1; }));
  ids.push_back(e.submit(tiny_job({1, 2}, priority_t::low)).job_id);
  ids.push_back(e.submit(tiny_job({3, 4}, priority_t::normal)).job_id);
  ids.push_back(e.submit(tiny_job({5, 6})).job_id);  // unspecified -> normal for circuits
  ids.push_back(e.submit(tiny_job({7, 8}, priority_t::critical)).job_id);
  ids.push_back(e.submit(tiny_job({9, 10}, priority_t::high)).job_id);
  EXPECT_EQ(e.status().queue_depth, 5u);
  gated->start_gate.open();
  for (const auto& id : ids) EXPECT_EQ(e.await(id).status, job_status_t::completed);

  const std::vector<uint64_t> expected_x = {1000, 1001, 7, 8, 9, 10, 3, 4, 5, 6, 1, 2};
  auto seen = gated->first_inputs();
  ASSERT_EQ(seen.size(), expected_x.size());
  for (size_t i = 0; i < seen.size(); ++i) {
    auto c = circuits::make_circuit_with_input("tiny", 0, {{"x", std::to_string(expected_x[i])}});
    EXPECT_EQ(seen[i], c->public_inputs()[0]) << "position " << i << " should be x=" << expected_x[i];
  }
}

TEST(engine_pipeline, never_fits_is_refused_and_an_exact_fit_runs) {
  // A job needs its parameters resident plus one partition's full footprint.
  const uint64_t chain_params = registered_params_bytes(true) - registered_params_bytes(false);
  const std::string id = "hash-chain-" + std::to_string(small_chain);
  auto req = chain_job(2);
  const uint64_t full = footprint_of(req).full();
  {
    engine_t e(small_config(chain_params + full - 1));
    e.register_parameters(id, params_for("hash-chain", small_chain));
    try {
      e.submit(req);
      FAIL() << "expected never_fits";
    } catch (const never_fits& err) {
      EXPECT_NE(std::string(err.what()).find(id), std::string::npos) << err.what();
    }
  }
  engine_t e(small_config(chain_params + full));
  e.register_parameters(id, params_for("hash-chain", small_chain));
  expect_verifies(e.prove(req), req);
  // Parameters larger than the whole budget are refused too.
  engine_t tiny_budget(small_config(1024));
  EXPECT_THROW(tiny_budget.register_parameters("tiny", params_for("tiny")), never_fits);
}

TEST(engine_pipeline, invalid_requests_name_what_is_wrong) {
  engine_t e(small_config(uint64_t(1) << 30));
  register_all(e);
  auto expect_invalid = [&](job_request_t r, const std::string& needle) {
    try {
      e.submit(r);
      ADD_FAILURE() << "accepted a request that should mention '" << needle << "'";
    } catch (const invalid_request& err) {
      EXPECT_NE(std::string(err.what()).find(needle), std::string::npos) << err.what();
    }
  };
  auto r = tiny_job({1});
  r.proof_kind = proof_kind_t::unspecified;
  expect_invalid(r, "unspecified");
  r.proof_kind = proof_kind_t::snap_deals_update;
  expect_invalid(r, "comm_r_old");  // snap: the commitments are checked first
  r.proof_kind = proof_kind_t::porep_seal_commit;
  expect_invalid(r, "vanilla_proof");
  r.proof_kind = static_cast<proof_kind_t>(7);
  expect_invalid(r, "7");
  r = tiny_job({1});
  r.circuit = "nope";
  expect_invalid(r, "unknown circuit 'nope'");
  r = tiny_job({1});
  r.circuit_input = "{not json";
  expect_invalid(r, "circuit_input");
  r.circuit_input = R"({"y": "1"})";
  expect_invalid(r, "tiny input");
  r = chain_job(0);
  expect_invalid(r, "partitions");
  r = tiny_job({1, 2});
  r.partitions = 3;
  expect_invalid(r, "disagrees");
  r = chain_job(1);
  r.circuit_size = 512;  // no parameters registered for this size
  expect_invalid(r, "hash-chain-512");
  r = tiny_job({1});
  r.request_id = "same";
  EXPECT_EQ(e.submit(r).job_id, "same");
  // The same request again attaches to that job, running or completed
  // (Curio's retry; a conflicting request is tested in CurioRetry).
  auto again = e.submit(r);
  EXPECT_EQ(again.job_id, "same");
  EXPECT_TRUE(again.attached);
  EXPECT_THROW(e.await("missing"), unknown_job);
  EXPECT_THROW(e.cancel("missing"), unknown_job);
  EXPECT_THROW(e.timeline_json("missing"), unknown_job);
  EXPECT_EQ(e.await("same").status, job_status_t::completed);
}

TEST(engine_pipeline, await_times_out_while_running_and_results_outlive_completion) {
  auto gated = std::make_shared<gated_backend_t>(make_cpu_backend());
  gated->finalize_gate.close();
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.result_retention_s = 0;
  engine_t e(c, {gated, nullptr, nullptr});
  open_gates_on_exit guard{*gated};
  register_all(e);
  auto id = e.submit(tiny_job({4})).job_id;
  auto waiting = e.await(id, std::chrono::milliseconds(5));
  EXPECT_EQ(waiting.status, job_status_t::timeout);
  EXPECT_TRUE(waiting.proof.empty());
  gated->finalize_gate.open();
  auto done = e.await(id);
  EXPECT_EQ(done.status, job_status_t::completed);
  EXPECT_EQ(e.await(id).proof, done.proof);  // still there for a second AwaitProof
  e.drain();
  // Retention 0: the next request purges it.
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_THROW(e.submit(tiny_job({5})), engine_stopped);  // drained engines take no new work
  EXPECT_EQ(e.await(id).status, job_status_t::completed);
  engine_t f(c);
  register_all(f);
  auto first = f.submit(tiny_job({6})).job_id;
  f.await(first);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // retention is in whole seconds
  auto second = f.submit(tiny_job({7})).job_id;
  EXPECT_THROW(f.await(first), unknown_job);
  EXPECT_EQ(f.await(second).status, job_status_t::completed);
}

TEST(engine_pipeline, timeline_status_and_metrics_report_the_work) {
  engine_t e(small_config(uint64_t(1) << 30));
  register_all(e);
  auto req = chain_job(2, 5);
  req.timeline = true;
  auto res = e.prove(req);
  expect_verifies(res, req);
  auto tl = nlohmann::json::parse(e.timeline_json(res.job_id));
  ASSERT_EQ(tl["partitions"].size(), 2u);
  for (const auto& p : tl["partitions"]) {
    std::vector<std::string> stages;
    uint64_t start_begin = 0, start_end = 0, steps_end = 0;
    for (const auto& ev : p["events"]) {
      stages.push_back(ev["stage"]);
      const auto b = ev["start_ms"].get<uint64_t>(), e = ev["end_ms"].get<uint64_t>();
      EXPECT_LE(b, e);
      if (ev["stage"] == "prove_start") start_begin = b, start_end = e;
      if (std::string(ev["stage"]).starts_with("prove_start.")) {
        EXPECT_GE(b + 1, steps_end) << "steps are laid end to end";  // whole milliseconds
        EXPECT_GE(b + 1, start_begin);
        EXPECT_LE(e, start_end + 1) << ev["stage"];
        steps_end = e;
      }
    }
    // The CPU prover's own steps (groth16/step_timer_t.hpp) inside prove_start.
    EXPECT_EQ(stages, (std::vector<std::string>{"synthesis", "queue", "prove_start", "prove_start.checks",
                                                "prove_start.compute_h", "prove_start.msm_h", "prove_start.msm_l",
                                                "prove_start.msm_a", "prove_start.msm_b_g1", "finalize", "verify"}));
  }
  auto s = e.status();
  EXPECT_EQ(s.completed, 1u);
  EXPECT_GT(s.peak_rss_bytes, 0u);
  EXPECT_EQ(s.loaded_params.size(), 2u);
  EXPECT_EQ(s.budget_reserved, uint64_t(s.gauges.params_bytes));
  auto m = e.metrics_text();
  EXPECT_NE(m.find("cuzk_proofs_completed_total 1\n"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_proofs_completed{proof_kind=\"circuit\"} 1\n"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_buffers{stage=\"synthesizing\"} 0\n"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_proof_duration_seconds_count{proof_kind=\"circuit\"} 1\n"), std::string::npos) << m;
}

TEST(engine_pipeline, stop_finishes_accepted_jobs) {
  auto e = std::make_unique<engine_t>(small_config(uint64_t(1) << 30));
  register_all(*e);
  std::vector<std::string> ids;
  for (uint64_t x = 1; x <= 4; ++x) ids.push_back(e->submit(tiny_job({x, x + 10})).job_id);
  e->stop();
  for (const auto& id : ids) EXPECT_EQ(e->await(id).status, job_status_t::completed);
  EXPECT_THROW(e->submit(tiny_job({1})), engine_stopped);
  e->stop();  // idempotent
  e.reset();
}

TEST(engine_pipeline, parameters_load_from_the_cache_dir_and_evict) {
  auto dir = std::filesystem::temp_directory_path() / ("cuzk_engine_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  groth16::write_parameters((dir / "tiny.params").string(), *params_for("tiny"));
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.param_cache = dir.string();
  engine_t e(c);
  auto req = tiny_job({8, 9});
  expect_verifies(e.prove(req), req);  // loaded on demand
  auto s = e.status();
  ASSERT_EQ(s.loaded_params.size(), 1u);
  EXPECT_EQ(s.loaded_params[0].bytes, std::filesystem::file_size(dir / "tiny.params"));
  EXPECT_TRUE(e.preload("tiny").already_loaded);
  auto ev = e.evict("tiny");
  EXPECT_TRUE(ev.was_loaded);
  EXPECT_EQ(e.status().budget_reserved, 0u);
  EXPECT_FALSE(e.evict("tiny").was_loaded);
  EXPECT_FALSE(e.preload("tiny").already_loaded);
  EXPECT_THROW(e.preload("hash-chain-999"), invalid_request);
  std::filesystem::remove_all(dir);
}

TEST(engine_pipeline, a_critical_partition_fits_in_the_standing_reserve_while_normal_work_waits) {
  // Room for 8 tiny partitions beside the parameters, one of them kept for
  // critical work. prove_start is held closed, so nothing gives bytes back:
  // 7 normal partitions fill the rest (one at the prove worker, the others
  // synthesized and waiting for it), the 8th waits for bytes, and a critical
  // one still gets its own. Enough synthesis workers that none is short.
  const uint64_t f = footprint_of(tiny_job({1})).full();
  const uint64_t params = registered_params_bytes(false), budget = params + 8 * f;
  auto cfg = small_config(budget);
  cfg.synthesis_threads = 10;
  cfg.critical_reserve = f;
  auto gated = std::make_shared<gated_backend_t>(make_cpu_backend());
  gated->start_gate.close();
  engine_t e(cfg, {gated, nullptr, nullptr});
  open_gates_on_exit guard{*gated};
  register_all(e, false);
  ASSERT_EQ(e.plan().critical_reserve, f);

  const auto normal = e.submit(tiny_job({1, 2, 3, 4, 5, 6, 7, 8}, priority_t::normal)).job_id;
  ASSERT_TRUE(wait_until([&] { return e.status().budget_reserved == params + 7 * f; }));
  const auto critical = e.submit(tiny_job({1000}, priority_t::critical)).job_id;
  // Granted: no job is left waiting to start (the normal one started with its first partition).
  ASSERT_TRUE(wait_until([&] { return e.status().queue_depth == 0; })) << "the critical partition got no bytes";
  EXPECT_EQ(e.status().budget_reserved, budget);
  // In the stages: 7 normal partitions and the critical one (counted from
  // synthesis on, a moment after its grant); the 8th normal, of the same size, waits.
  auto in_stages = [&] {
    const auto g = e.status().gauges;
    return g.synthesizing + g.queued + g.on_gpu + g.pending_finalize;
  };
  ASSERT_TRUE(wait_until([&] { return in_stages() == 8; })) << in_stages();
  EXPECT_EQ(e.status().budget_reserved, budget);
  gated->start_gate.open();
  EXPECT_EQ(e.await(critical).status, job_status_t::completed);
  EXPECT_EQ(e.await(normal).status, job_status_t::completed);
  EXPECT_EQ(gated->first_inputs().size(), 9u);
}

TEST(engine_pipeline, the_critical_reserve_is_clamped_and_counted_in_never_fits) {
  const uint64_t f = footprint_of(tiny_job({1})).full();
  const uint64_t params = registered_params_bytes(false);
  // Asked for more than an eighth of the budget: an eighth.
  auto cfg = small_config(params + 2 * f);
  cfg.critical_reserve = uint64_t(1) << 40;
  {
    engine_t e(cfg);
    EXPECT_EQ(e.plan().critical_reserve, (params + 2 * f) / 8);
  }
  // auto: one 64 GiB WinningPoSt partition on the larger of the two footprints.
  const uint64_t winning = winning_post_reserve();
  std::cout << "[engine_pipeline] auto critical reserve " << winning << " bytes" << std::endl;
  EXPECT_GT(winning, uint64_t(64) << 20);
  EXPECT_LT(winning, uint64_t(4) << 30);
  cfg = small_config(uint64_t(64) << 30);
  cfg.critical_reserve.reset();
  EXPECT_EQ(plan_budget(cfg, 1).critical_reserve, winning);
  cfg.critical_reserve = 0;
  EXPECT_EQ(plan_budget(cfg, 1).critical_reserve, 0u);

  // A budget that holds one tiny partition beside its parameters, but not
  // beside the reserve as well: normal work is refused, critical work runs.
  cfg = small_config(params + f);
  cfg.critical_reserve = f;  // clamped to an eighth, still more than the slack
  engine_t e(cfg);
  register_all(e, false);
  ASSERT_GT(e.plan().critical_reserve, 0u);
  try {
    e.submit(tiny_job({1}, priority_t::normal));
    FAIL() << "expected never_fits";
  } catch (const never_fits& err) {
    EXPECT_NE(std::string(err.what()).find("critical_reserve"), std::string::npos) << err.what();
  }
  auto req = tiny_job({2}, priority_t::critical);
  expect_verifies(e.prove(req), req);
}
