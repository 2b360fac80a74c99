// The engine's witness buffer pool (r1cs::buffer_pool_t) on the CPU: a
// backend that frees a, b, c inside a keep_scope, as the GPU prover frees
// its uploaded buffers, so later partitions synthesize into them. Checked:
// the buffers really come back (same addresses), every proof verifies, the
// budget pays for the idle buffers exactly, and a budget with room for one
// partition only still reuses them instead of waiting or evicting. On a GPU
// the same with the CUDA backend and pin_witness: the buffers stay locked
// while pooled and are unlocked when the engine stops.
#include <gtest/gtest.h>

#include <set>

#include "engine/engine.hpp"
#include "engine/gpu_backend_t.hpp"
#include "engine_test_support.hpp"
#include "r1cs/buffer_pool_t.hpp"

namespace cuzk::engine {
namespace {

using namespace test_support;

// Rows: the domain is 2^16, so a, b, c are 2 MiB each (pooled); the aux assignment is smaller (not pooled).
constexpr size_t pooled_chain = 60000;
constexpr uint64_t abc_bytes = 3 * (uint64_t(32) << 16);

class pooling_backend_t final : public prove_backend_t {
 public:
  std::string name() const override { return "cpu+pool"; }
  uint32_t device_count() const override { return 1; }
  bool pools_witness() const override { return true; }

  groth16::pending_proof_t prove_start(uint32_t device, const groth16::parameters_t& params,
                                       r1cs::witness_cs&& w) override {
    r1cs::fr_vector a = w.take_a(), b = w.take_b(), c = w.take_c();
    {
      std::lock_guard lk(mu_);
      for (const auto* v : {&a, &b, &c}) addresses_.insert(v->data());
    }
    // The CPU prover gets copies; the originals are freed the way the GPU prover frees them.
    r1cs::witness_cs::parts_t parts{w.take_input_assignment(), w.take_aux_assignment(), a, b, c,
                                    w.a_input_density(), w.b_input_density(), w.a_aux_density(),
                                    w.b_aux_density()};
    auto copy = r1cs::witness_cs::from_parts(std::move(parts));
    {
      r1cs::buffer_pool_t::keep_scope keep;
      for (r1cs::fr_vector* v : {&a, &b, &c}) r1cs::fr_vector().swap(*v);
    }
    return inner_->prove_start(device, params, std::move(copy));
  }
  groth16::proof_t finalize(uint32_t device, const groth16::parameters_t& params, groth16::pending_proof_t&& pending,
                            const ff::fr_t& r, const ff::fr_t& s) override {
    return inner_->finalize(device, params, std::move(pending), r, s);
  }
  // Distinct a, b, c buffers seen by prove_start.
  size_t distinct_buffers() const {
    std::lock_guard lk(mu_);
    return addresses_.size();
  }

 private:
  std::shared_ptr<prove_backend_t> inner_ = make_cpu_backend();
  mutable std::mutex mu_;
  std::set<const void*> addresses_;
};

job_request_t pooled_job(uint32_t partitions, uint64_t x0) {
  job_request_t r = chain_job(partitions, x0);
  r.circuit_size = pooled_chain;
  return r;
}

void expect_pooled_proofs_verify(const job_result_t& res, const job_request_t& req) {
  ASSERT_EQ(res.status, job_status_t::completed) << res.error_message;
  auto c = circuits::make_circuit_with_input(req.circuit, req.circuit_size, nlohmann::json::parse(req.circuit_input));
  groth16::prepared_vk_t pvk(params_for("hash-chain", pooled_chain)->vk);
  ASSERT_EQ(res.proof.size(), groth16::proof_size * req.partitions);
  for (size_t i = 0; i < req.partitions; ++i) {
    groth16::proof_t p;
    ASSERT_TRUE(groth16::decode_proof(std::span(res.proof).subspan(i * groth16::proof_size, groth16::proof_size), p).ok());
    EXPECT_TRUE(pvk.verify(p, c->public_inputs())) << "partition " << i;
  }
}

// Runs two jobs one after the other on `partitions_budget` bytes beyond the
// parameters. With room for one partition only, partitions run one at a time,
// so the counts are exact; with more, some synthesize while others prove.
// Returns the buffers synthesis took back from the pool.
uint64_t run_two_jobs(const std::shared_ptr<prove_backend_t>& backend, uint64_t partitions_budget,
                      uint32_t partitions, bool one_at_a_time) {
  const auto params = params_for("hash-chain", pooled_chain);
  const std::string id = "hash-chain-" + std::to_string(pooled_chain);
  const uint64_t params_bytes = [&] {
    engine_t probe(small_config(uint64_t(1) << 32));
    probe.register_parameters(id, params);
    return probe.status().gauges.params_bytes;
  }();
  engine_t e(small_config(params_bytes + partitions_budget), {backend, nullptr, nullptr});
  e.register_parameters(id, params);
  for (uint64_t x0 : {3u, 4u}) {
    const auto req = pooled_job(partitions, x0);
    const auto res = e.await(e.submit(req).job_id, std::chrono::seconds(120));
    expect_pooled_proofs_verify(res, req);
    // Idle: the budget holds the parameters and exactly the pooled a, b, c
    // (of one partition, or of each that ran at the same time as another).
    EXPECT_TRUE(wait_until([&] {
      const auto s = e.status();
      return s.budget_reserved == s.gauges.params_bytes + s.witness_pool_bytes;
    })) << "the partitions' reservations must all come back";
    const auto s = e.status();
    if (one_at_a_time) {
      EXPECT_EQ(s.witness_pool_bytes, abc_bytes);
    } else {
      EXPECT_GT(s.witness_pool_bytes, 0u);
      EXPECT_EQ(s.witness_pool_bytes % abc_bytes, 0u);
    }
  }
  const auto s = e.status();
  const uint32_t total = 2 * partitions;
  if (one_at_a_time) {
    // Each partition after the first synthesizes into the buffers the one before it left.
    EXPECT_EQ(s.witness_pool_hits, 3u * (total - 1));
  } else {
    EXPECT_GE(s.witness_pool_hits, 3u) << "the second job's partitions find the first job's buffers";
  }
  e.stop();
  EXPECT_EQ(e.status().budget_reserved, e.status().gauges.params_bytes) << "stopping frees the pool and its bytes";
  return s.witness_pool_hits;
}

TEST(engine_pool, later_partitions_reuse_the_witness_buffers_and_the_budget_pays_for_idle_ones) {
  const auto f = footprint_of(pooled_job(1, 1));
  ASSERT_GE(f.witness, abc_bytes);
  auto backend = std::make_shared<pooling_backend_t>();
  run_two_jobs(backend, 4 * f.full(), 3, false);
  EXPECT_LT(backend->distinct_buffers(), 3u * 6u) << "some partitions must have run in reused buffers";
}

TEST(engine_pool, room_for_one_partition_still_reuses_instead_of_waiting_or_evicting) {
  const auto f = footprint_of(pooled_job(1, 1));
  // With the idle pool counted, the next partition fits only by taking it over.
  auto backend = std::make_shared<pooling_backend_t>();
  run_two_jobs(backend, f.full(), 2, true);
  EXPECT_EQ(backend->distinct_buffers(), 3u) << "a, b, c must be the same three buffers every time";
}

TEST(engine_pool, gpu_witness_buffers_stay_locked_while_pooled) {
  if (!gpu_available()) GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA)";
  groth16::gpu_prover_options_t o;
  o.pin_witness = true;
  auto gpu = std::make_shared<gpu_backend_t>(std::vector<uint32_t>{}, o);
  ASSERT_TRUE(gpu->pools_witness());
  const auto f = footprint_of(pooled_job(1, 1));
  const size_t pinned_before = gpu::pinned_bytes();
  std::optional<size_t> pinned_while_pooled;
  {
    const auto params = params_for("hash-chain", pooled_chain);
    const std::string id = "hash-chain-" + std::to_string(pooled_chain);
    engine_t e(small_config(f.full() + (uint64_t(1) << 30)), {gpu, make_cpu_backend(), nullptr});
    e.register_parameters(id, params);
    for (uint64_t x0 : {5u, 6u}) {
      const auto req = pooled_job(2, x0);
      expect_pooled_proofs_verify(e.await(e.submit(req).job_id, std::chrono::seconds(120)), req);
    }
    const auto s = e.status();
    EXPECT_GE(s.witness_pool_hits, 3u);
    EXPECT_EQ(s.witness_pool_bytes % abc_bytes, 0u);
    pinned_while_pooled = gpu::pinned_bytes();
    EXPECT_EQ(*pinned_while_pooled - pinned_before, s.witness_pool_bytes) << "pooled buffers stay page-locked";
  }
  EXPECT_EQ(gpu::pinned_bytes(), pinned_before) << "the engine's end frees and unlocks them";
}

}  // namespace
}  // namespace cuzk::engine
