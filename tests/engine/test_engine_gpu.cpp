// The engine on the CUDA backend: hash-chain jobs of several partitions prove
// on the GPU and every partition's proof verifies; one prover (resident
// bases) per parameter set and device. Backend selection by name everywhere.
// The GPU parts skip without a GPU (or in a build without CUDA).
#include "engine/gpu_backend_t.hpp"
#include "engine_test_support.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using namespace cuzk::engine::test_support;

TEST(engine_gpu, backend_names_select_or_refuse) {
  EXPECT_EQ(make_backend("cpu")->name(), "cpu");
  EXPECT_EQ(make_backend("auto")->name(), gpu_available() ? "cuda" : "cpu");
  EXPECT_THROW(make_backend("opencl"), std::invalid_argument);
  if (!gpu_available()) {
    EXPECT_THROW(make_backend("cuda"), std::runtime_error);
    EXPECT_THROW(make_gpu_backend(), std::runtime_error);
  } else {
    EXPECT_THROW(make_gpu_backend({1000}), std::invalid_argument);
  }
}

TEST(engine_gpu, hash_chain_jobs_verify_on_the_gpu) {
  if (!gpu_available()) GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA)";
  auto gpu = std::make_shared<gpu_backend_t>();
  engine_config_t c = small_config(uint64_t(4) << 30);
  c.gpu_workers_per_device = 2;  // two workers share each device's prover
  engine_t e(c, {gpu, make_cpu_backend(), nullptr});
  register_all(e);
  // Registering prepares: both parameter sets are on every device before any proof.
  EXPECT_EQ(gpu->provers_built(), 2 * gpu->device_count());
  const std::vector<job_request_t> reqs = {chain_job(3, 5), chain_job(2, 77), tiny_job({3, 4})};
  std::vector<std::string> ids;
  for (const auto& r : reqs) ids.push_back(e.submit(r).job_id);
  for (size_t i = 0; i < reqs.size(); ++i) expect_verifies(e.await(ids[i]), reqs[i]);
  // Status names each worker's GPU and its memory.
  for (const auto& w : e.status().workers) {
    if (w.backend != "cuda") continue;
    EXPECT_FALSE(w.device_name.empty());
    EXPECT_GT(w.memory_total, 0u);
    EXPECT_LE(w.memory_free, w.memory_total);
  }
  // Two parameter sets on each device, built once each whatever the number of proofs.
  EXPECT_EQ(gpu->provers_built(), 2 * gpu->device_count());
  // A proof from the GPU backend is the CPU backend's for the same r, s.
  const auto params = params_for("hash-chain", small_chain);
  auto circuit = circuits::make_circuit("hash-chain", small_chain);
  const ff::fr_t r = ff::fr_t::from_u64(3), s = ff::fr_t::from_u64(5);
  auto prove_on = [&](prove_backend_t& b) {
    return b.finalize(0, *params, b.prove_start(0, *params, groth16::synthesize_witness(*circuit)), r, s).encode();
  };
  const auto on_cpu = prove_on(*make_cpu_backend());
  EXPECT_EQ(prove_on(*gpu), on_cpu);
  gpu->forget(*params);
  EXPECT_EQ(prove_on(*gpu), on_cpu);  // rebuilt after forget
  EXPECT_EQ(gpu->provers_built(), 2 * gpu->device_count() + 1);
}
