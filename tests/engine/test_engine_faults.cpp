// Faults (injected prover errors, wrong parameters, cancel) and one test per
// failure of the daemon we replace (CUZK_API.md 7.3): F2 permit released
// early, F3 channel sized to workers, F4 counter never decremented.
#include <atomic>

#include "engine_test_support.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using namespace cuzk::engine::test_support;

namespace {

// Checks invariants at every gauge/budget transition; asserted after the run.
struct transition_check_t {
  uint64_t total = 0;
  partition_footprint_t f;  // the workload's footprint, when single-circuit
  std::atomic<uint64_t> transitions{0}, over_budget{0}, negative{0}, unaccounted{0};
  std::atomic<int64_t> max_full{0};  // partitions holding a full footprint

  std::function<void(std::string_view, const gauge_snapshot_t&)> observer() {
    return [this](std::string_view, const gauge_snapshot_t& g) {
      ++transitions;
      if (uint64_t(g.bytes_reserved + g.params_bytes) > total) ++over_budget;
      if (g.synthesizing < 0 || g.queued < 0 || g.on_gpu < 0 || g.pending_finalize < 0 || g.bytes_reserved < 0) {
        ++negative;
      }
      const int64_t full = g.synthesizing + g.queued + g.on_gpu;
      int64_t m = max_full;
      while (full > m && !max_full.compare_exchange_weak(m, full)) {
      }
      // Every partition that exists is paid for: full until prove_start
      // returns, its pending part until finalize ends.
      if (f.full() && uint64_t(g.bytes_reserved) < uint64_t(g.synthesizing + g.queued + g.on_gpu) * f.full() +
                                                        uint64_t(g.pending_finalize) * f.pending) {
        ++unaccounted;
      }
    };
  }
};

void expect_idle(const engine_t& e, uint64_t params_bytes) {
  auto g = e.status().gauges;
  EXPECT_EQ(g.synthesizing, 0);
  EXPECT_EQ(g.queued, 0);
  EXPECT_EQ(g.on_gpu, 0);
  EXPECT_EQ(g.pending_finalize, 0);
  EXPECT_EQ(g.bytes_reserved, 0);
  EXPECT_EQ(uint64_t(g.params_bytes), params_bytes);
  EXPECT_EQ(e.status().budget_reserved, params_bytes);
}

}  // namespace

TEST(engine_faults, injected_prove_start_failures_are_retried_and_the_job_completes) {
  auto faulty = std::make_shared<fault_injecting_backend_t>(
      make_cpu_backend(), [](uint64_t call, uint32_t) { return call == 0 || call == 2; });
  engine_t e(small_config(uint64_t(1) << 30), {faulty, nullptr, nullptr});
  register_all(e);
  auto req = tiny_job({2, 4, 6});
  req.timeline = true;
  auto res = e.prove(req);
  expect_verifies(res, req);
  EXPECT_EQ(res.retries, 2u);
  EXPECT_EQ(faulty->faults(), 2u);
  uint32_t attempts = 0;
  const auto tl = nlohmann::json::parse(e.timeline_json(res.job_id));
  for (const auto& p : tl["partitions"]) attempts += p["attempts"].get<uint32_t>();
  EXPECT_EQ(attempts, 5u);  // 3 partitions + 2 retries
}

TEST(engine_faults, a_failing_device_hands_its_partitions_to_another) {
  auto faulty = std::make_shared<fault_injecting_backend_t>(make_cpu_backend(2),
                                                            [](uint64_t, uint32_t device) { return device == 0; });
  engine_t e(small_config(uint64_t(1) << 30), {faulty, nullptr, nullptr});
  register_all(e);
  auto req = tiny_job({1, 2, 3, 4, 5, 6});
  req.timeline = true;
  auto res = e.prove(req);
  expect_verifies(res, req);
  EXPECT_EQ(res.retries, faulty->faults());
  size_t proved = 0;
  const auto tl = nlohmann::json::parse(e.timeline_json(res.job_id));
  for (const auto& p : tl["partitions"]) {
    for (const auto& ev : p["events"]) {
      if (ev["stage"] == "prove_start") {
        ++proved;
        EXPECT_NE(ev["where"].get<std::string>().find("device 1"), std::string::npos) << ev.dump();
      }
    }
  }
  EXPECT_EQ(proved, 6u);  // failed attempts end no prove_start stage
}

TEST(engine_faults, a_partition_failing_on_every_backend_fails_the_job_with_the_reason) {
  auto always = [](uint64_t, uint32_t) { return true; };
  auto bad = std::make_shared<fault_injecting_backend_t>(make_cpu_backend(), always);
  auto bad_fallback = std::make_shared<fault_injecting_backend_t>(make_cpu_backend(), always);
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.max_attempts = 3;
  engine_t e(c, {bad, bad_fallback, nullptr});
  register_all(e);
  auto res = e.prove(tiny_job({1, 2}));
  EXPECT_EQ(res.status, job_status_t::failed);
  EXPECT_NE(res.error_message.find("failed 3 times"), std::string::npos) << res.error_message;
  EXPECT_NE(res.error_message.find("injected prove_start fault"), std::string::npos) << res.error_message;
  EXPECT_GE(bad_fallback->faults(), 1u);  // after the only device failed, the fallback was tried
  EXPECT_TRUE(res.proof.empty());
  e.drain();
  expect_idle(e, e.status().gauges.params_bytes);
  EXPECT_EQ(e.status().failed, 1u);
  // The engine keeps working afterwards.
  engine_t ok(small_config(uint64_t(1) << 30));
  register_all(ok);
  EXPECT_EQ(ok.prove(tiny_job({3})).status, job_status_t::completed);
}

namespace {

// Needs half the CPU prover's host bytes (as the GPU backend does) and fails every partition.
class lean_failing_t final : public prove_backend_t {
 public:
  std::string name() const override { return "lean"; }
  uint32_t device_count() const override { return 1; }
  partition_footprint_t footprint(const r1cs::shape_counts_t& s, const witness_form_t&) const override {
    auto f = partition_footprint(s);
    f.working /= 2;
    f.pending /= 2;
    return f;
  }
  groth16::pending_proof_t prove_start(uint32_t, const groth16::parameters_t&, r1cs::witness_cs&&) override {
    throw std::runtime_error("lean backend: always fails");
  }
  groth16::proof_t finalize(uint32_t, const groth16::parameters_t&, groth16::pending_proof_t&&, const ff::fr_t&,
                            const ff::fr_t&) override {
    throw std::logic_error("never reached");
  }
};

}  // namespace

// A backend that needs less host memory than the CPU prover (as the GPU one
// does) and fails every partition: the retry that goes to the CPU fallback
// must reserve the fallback's larger footprint, not the backend's.
TEST(engine_faults, a_partition_for_the_fallback_reserves_the_fallbacks_footprint) {
  std::atomic<int64_t> most{0};
  auto watch = [&](std::string_view, const gauge_snapshot_t& g) {
    int64_t m = most;
    while (g.bytes_reserved > m && !most.compare_exchange_weak(m, g.bytes_reserved)) {
    }
  };
  engine_t e(small_config(uint64_t(1) << 30), {std::make_shared<lean_failing_t>(), make_cpu_backend(), watch});
  register_all(e);
  const auto req = tiny_job({5});
  expect_verifies(e.prove(req), req);  // proved by the fallback
  const auto cpu = footprint_of(req);
  EXPECT_EQ(uint64_t(most.load()), cpu.full()) << "the fallback attempt must reserve the CPU prover's footprint";
}

// Admission goes by the backend's footprint, not the CPU fallback's larger
// one (a 32 GiB PoRep job fits a budget the compact CUDA footprint fits):
// when every device failed a partition and the fallback's footprint does not
// fit the budget, the job fails naming why, and nothing hangs.
TEST(engine_faults, a_fallback_larger_than_the_budget_fails_the_job_naming_it) {
  const auto req = tiny_job({5});
  const auto cpu = footprint_of(req);
  const uint64_t lean = cpu.working / 2 + cpu.pending / 2;
  ASSERT_LT(lean + 64, cpu.full());
  uint64_t params_bytes = 0;
  {
    engine_t probe(small_config(uint64_t(1) << 30));
    probe.register_parameters("tiny", params_for("tiny"));
    params_bytes = probe.status().gauges.params_bytes;
  }
  engine_t e(small_config(params_bytes + lean + 64), {std::make_shared<lean_failing_t>(), make_cpu_backend(), nullptr});
  e.register_parameters("tiny", params_for("tiny"));
  const auto res = e.prove(req);
  EXPECT_EQ(res.status, job_status_t::failed);
  EXPECT_NE(res.error_message.find("CPU fallback needs"), std::string::npos) << res.error_message;
}

TEST(engine_faults, proofs_from_wrong_parameters_are_caught_by_verification) {
  // The proving key of one setup with the verifying key of another: shapes
  // match, prove_start succeeds, and only verification can notice.
  groth16::seeded_rng rng(cuzk::test::seed("engine wrong parameters"));
  auto other = groth16::generate_parameters(*circuits::make_circuit("tiny"), groth16::toxic_waste_t::random(rng));
  auto mixed = *params_for("tiny");
  mixed.vk = other.vk;
  auto wrong = std::make_shared<const groth16::parameters_t>(std::move(mixed));
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.max_attempts = 2;
  engine_t e(c);
  e.register_parameters("tiny", wrong);
  auto res = e.prove(tiny_job({5}));
  EXPECT_EQ(res.status, job_status_t::failed);
  EXPECT_NE(res.error_message.find("does not verify"), std::string::npos) << res.error_message;
  // With verification off the engine trusts the prover, as configured.
  c.verify_proofs = false;
  engine_t trusting(c);
  trusting.register_parameters("tiny", wrong);
  EXPECT_EQ(trusting.prove(tiny_job({5})).status, job_status_t::completed);
}

TEST(engine_faults, cancel_returns_queued_memory_at_once) {
  auto req = tiny_job({1, 2, 3, 4});
  const auto f = footprint_of(req);
  const uint64_t params = registered_params_bytes(false);
  auto gated = std::make_shared<gated_backend_t>(make_cpu_backend());
  gated->start_gate.close();
  engine_t e(small_config(params + 2 * f.full()), {gated, nullptr, nullptr});
  open_gates_on_exit guard{*gated};
  register_all(e, false);
  auto id = e.submit(req).job_id;
  // Partition 0 held inside prove_start, partition 1 synthesized and queued:
  // the budget is full and partition 2 waits for memory.
  ASSERT_TRUE(wait_until([&] { return gated->start_gate.waiting() == 1 && e.status().gauges.queued == 1; }));
  EXPECT_EQ(e.status().gauges.bytes_reserved, int64_t(2 * f.full()));
  EXPECT_TRUE(e.cancel(id));
  auto g = e.status().gauges;  // right after cancel, before anything else runs
  EXPECT_EQ(g.queued, 0);
  EXPECT_EQ(g.bytes_reserved, int64_t(f.full()));  // only the partition inside prove_start
  auto res = e.await(id);
  EXPECT_EQ(res.status, job_status_t::cancelled);
  EXPECT_FALSE(e.cancel(id));  // already finished
  gated->start_gate.open();
  e.drain();
  expect_idle(e, params);
  EXPECT_EQ(e.status().cancelled, 1u);
}

TEST(engine_history, f2_permit_released_early__reservations_are_held_until_finalize) {
  // The Rust engine released its permit when synthesis ended, so finished
  // outputs piled up unbudgeted. Here a partition pays for itself until
  // finalize returns: hold finalize and the pending bytes stay reserved.
  auto req = tiny_job({1, 2, 3, 4});
  transition_check_t check;
  check.total = uint64_t(1) << 30;
  check.f = footprint_of(req);
  auto gated = std::make_shared<gated_backend_t>(make_cpu_backend());
  gated->finalize_gate.close();
  engine_t e(small_config(check.total), {gated, nullptr, check.observer()});
  open_gates_on_exit guard{*gated};
  register_all(e);
  auto id = e.submit(req).job_id;
  ASSERT_TRUE(wait_until([&] { return e.status().gauges.pending_finalize == 4; }));
  auto g = e.status().gauges;
  EXPECT_EQ(g.synthesizing + g.queued + g.on_gpu, 0);
  EXPECT_EQ(g.bytes_reserved, int64_t(4 * check.f.pending));
  EXPECT_EQ(e.await(id, std::chrono::milliseconds(1)).status, job_status_t::timeout);
  gated->finalize_gate.open();
  expect_verifies(e.await(id), req);
  EXPECT_EQ(check.unaccounted, 0u);
  EXPECT_EQ(check.over_budget, 0u);
}

TEST(engine_history, f3_channel_sized_to_workers__queue_depth_is_bounded_by_count_memory_by_budget) {
  // Enlarging the channel to the worker count moved the pile into the channel.
  // Here the queue holds at most queue_depth_per_worker per prove worker, and
  // the budget alone caps how many partitions exist, whatever the worker count.
  auto req = tiny_job({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  const auto f = footprint_of(req);
  const uint64_t params = registered_params_bytes(false);
  for (uint32_t workers : {1u, 4u}) {
    transition_check_t check;
    check.total = params + 6 * f.full();
    check.f = f;
    auto gated = std::make_shared<gated_backend_t>(make_cpu_backend());
    gated->start_gate.close();
    engine_config_t c = small_config(check.total);
    c.synthesis_threads = 4;
    c.gpu_workers_per_device = workers;
    c.queue_depth_per_worker = 2;
    engine_t e(c, {gated, nullptr, check.observer()});
    open_gates_on_exit guard{*gated};
    register_all(e, false);
    auto id = e.submit(req).job_id;
    ASSERT_TRUE(wait_until([&] { return e.status().gauges.bytes_reserved == int64_t(6 * f.full()); }));
    auto s = e.status();
    EXPECT_EQ(s.gpu_queue_capacity, 2 * workers);
    EXPECT_LE(s.gpu_queue_depth, s.gpu_queue_capacity);
    gated->start_gate.open();
    expect_verifies(e.await(id), req);
    s = e.status();
    EXPECT_LE(s.gpu_queue_peak, s.gpu_queue_capacity) << workers << " workers";
    // Partitions before prove_start hold a full footprint: the budget's 6, not
    // the queue's 2 * workers, bounds them.
    EXPECT_LE(check.max_full, 6) << workers << " workers";
    EXPECT_EQ(check.over_budget, 0u);
    EXPECT_EQ(check.unaccounted, 0u);
  }
}

TEST(engine_history, f4_counter_never_decremented__gauges_are_zero_at_idle_after_a_mixed_workload) {
  // Completions, retries, a failure, a cancel, two circuits, two devices; the
  // budget is checked at every transition and must be tight enough to make
  // partitions wait.
  const uint64_t params = registered_params_bytes();
  transition_check_t check;
  check.total = params + 3 * footprint_of(chain_job(1)).full();
  auto faulty = std::make_shared<fault_injecting_backend_t>(
      make_cpu_backend(2), [](uint64_t call, uint32_t) { return call % 5 == 1 && call < 20; });
  engine_config_t c = small_config(check.total);
  c.max_attempts = 6;  // at most 4 faults in all: no partition can run out of attempts
  engine_t e(c, {faulty, nullptr, check.observer()});
  register_all(e);
  std::vector<std::pair<std::string, job_request_t>> jobs;
  for (auto r : {chain_job(2, 3), tiny_job({1, 2, 3}), chain_job(1, 9), tiny_job({7}, priority_t::critical),
                 chain_job(3, 21)}) {
    jobs.emplace_back(e.submit(r).job_id, r);
  }
  auto cancelled = e.submit(tiny_job({40, 41, 42, 43})).job_id;
  e.cancel(cancelled);
  for (const auto& [id, r] : jobs) expect_verifies(e.await(id), r);
  EXPECT_EQ(e.await(cancelled).status, job_status_t::cancelled);
  e.drain();
  expect_idle(e, params);
  EXPECT_GT(faulty->faults(), 0u);
  EXPECT_GT(check.transitions, 50u);
  EXPECT_EQ(check.over_budget, 0u);
  EXPECT_EQ(check.negative, 0u);
}
