// The engine on the CUDA backend: hash-chain jobs of several partitions prove
// on the GPU and every partition's proof verifies; one prover (resident
// bases) per parameter set and device. Backend selection by name everywhere.
// The GPU parts skip without a GPU (or in a build without CUDA).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

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

namespace {

// One hash-chain proof with fixed r and s on a backend: equal bytes on every backend.
struct chain_prover_t {
  std::unique_ptr<circuits::any_circuit> circuit = circuits::make_circuit("hash-chain", small_chain);
  ff::fr_t r, s;
  chain_prover_t(uint64_t r_, uint64_t s_) : r(ff::fr_t::from_u64(r_)), s(ff::fr_t::from_u64(s_)) {}
  auto prove(prove_backend_t& b, const groth16::parameters_t& p) const {
    return b.finalize(0, p, b.prove_start(0, p, groth16::synthesize_witness(*circuit)), r, s).encode();
  }
};

}  // namespace

TEST(engine_gpu, released_host_copy_proves_the_same_bytes) {
  if (!gpu_available()) GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA)";
  const auto original = params_for("hash-chain", small_chain);
  const chain_prover_t chain(11, 13);
  auto prove_on = [&](prove_backend_t& b, const groth16::parameters_t& p) { return chain.prove(b, p); };
  const auto on_cpu = prove_on(*make_cpu_backend(), *original);
  {
    // Small parameters all fit on the device: every query is resident, so
    // every host vector goes, and the proof is still the CPU's.
    groth16::parameters_t p = *original;
    gpu_backend_t gpu;
    const uint64_t expected = p.bytes() - sizeof(groth16::verifying_key_t) - sizeof(p.vk.ic[0]) * p.vk.ic.size();
    EXPECT_EQ(gpu.release_host_copy(p), expected);
    EXPECT_TRUE(p.h.empty() && p.l.empty() && p.a.empty() && p.b_g1.empty() && p.b_g2.empty());
    EXPECT_EQ(p.vk, original->vk);
    EXPECT_EQ(gpu.provers_built(), gpu.device_count());
    EXPECT_EQ(prove_on(gpu, p), on_cpu);
    EXPECT_EQ(gpu.provers_built(), gpu.device_count());  // the released vectors did not make it rebuild
    EXPECT_EQ(gpu.release_host_copy(p), 0u);             // nothing left to free
  }
  // A file loaded through the engine: a_file_read_query_by_query_onto_the_device_proves_the_cpus_bytes.
}

TEST(engine_gpu, a_file_read_query_by_query_onto_the_device_proves_the_cpus_bytes) {
  if (!gpu_available()) GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA)";
  const auto original = params_for("hash-chain", small_chain);
  const chain_prover_t chain(17, 19);
  auto prove_on = [&](prove_backend_t& b, const groth16::parameters_t& p) { return chain.prove(b, p); };
  const auto on_cpu = prove_on(*make_cpu_backend(), *original);
  const auto dir = std::filesystem::temp_directory_path() / ("cuzk_engine_gpu_file_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string id = "hash-chain-" + std::to_string(small_chain);
  const auto path = (dir / (id + ".params")).string();
  groth16::write_parameters(path, *original);
  const groth16::parameter_file_t file(path);
  constexpr auto check = ec::subgroup_check::check;
  {
    // Small parameters: every query fits, so none is read into host memory.
    gpu_backend_t gpu;
    EXPECT_EQ(gpu.device_queries_for(id, file.layout().sizes), 0x1fu);
    const groth16::parameters_t p = file.read_queries(0, check);  // the vk only
    gpu.prepare_from_file(p, 0x1f, file, check);
    EXPECT_EQ(gpu.provers_built(), gpu.device_count());
    EXPECT_EQ(prove_on(gpu, p), on_cpu);
    EXPECT_EQ(gpu.provers_built(), gpu.device_count());  // the empty vectors did not make it rebuild
  }
  {
    // Some queries from host memory, the others from the file.
    gpu_backend_t gpu;
    const groth16::parameters_t p = file.read_queries(0b00110, check);
    gpu.prepare_from_file(p, 0b11001, file, check);
    EXPECT_EQ(prove_on(gpu, p), on_cpu);
  }
  {
    // A point off the curve in a query read straight onto the device: named.
    std::vector<uint8_t> bytes(file.bytes().begin(), file.bytes().end());
    bytes[file.layout().offset[3] + 2 * 96 + 95] ^= 1;
    const auto bad_path = (dir / "bad.params").string();
    {
      std::ofstream out(bad_path, std::ios::binary);
      out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    const groth16::parameter_file_t bad(bad_path);
    gpu_backend_t gpu;
    const groth16::parameters_t p = bad.read_queries(0, check);
    try {
      gpu.prepare_from_file(p, 0x1f, bad, check);
      ADD_FAILURE() << "a bad point was uploaded";
    } catch (const groth16::format_error& e) {
      EXPECT_NE(std::string(e.what()).find("b_g1[2]: point not on the curve"), std::string::npos) << e.what();
    }
  }
  // Through the engine: the charge is what host memory holds (the vk here).
  auto gpu = std::make_shared<gpu_backend_t>();
  engine_config_t c = small_config(uint64_t(4) << 30);
  c.param_cache = dir.string();
  {
    engine_t e(c, {gpu, make_cpu_backend(), nullptr});
    auto req = chain_job(2, 21);
    expect_verifies(e.prove(req), req);
    const auto st = e.status();
    ASSERT_EQ(st.loaded_params.size(), 1u);
    EXPECT_EQ(st.loaded_params[0].bytes, file.layout().bytes_holding(0));
    EXPECT_EQ(st.loaded_params[0].host_released, file.layout().bytes_holding(0x1f) - file.layout().bytes_holding(0));
  }
  std::filesystem::remove_all(dir);
}

TEST(engine_gpu, a_set_leaves_the_device_to_unloaded_sets_of_higher_priority) {
  if (!gpu_available()) GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA)";
  const auto p = params_for("hash-chain", small_chain);
  auto circuit = circuits::make_circuit("hash-chain", small_chain);
  const ff::fr_t r = ff::fr_t::from_u64(7), s = ff::fr_t::from_u64(8);
  auto prove_on = [&](prove_backend_t& b) {
    return b.finalize(0, *p, b.prove_start(0, *p, groth16::synthesize_witness(*circuit)), r, s).encode();
  };
  const auto on_cpu = prove_on(*make_cpu_backend());
  auto all = [](const gpu::residency_plan_t& plan, gpu::residency_t t) {
    return std::ranges::all_of(plan.tiers, [t](gpu::residency_t x) { return x == t; });
  };
  {
    // Alone, a small set lives on the device.
    gpu_backend_t gpu;
    gpu.claim_residency("porep-2k", 2, p->bytes(), p.get());
    gpu.prepare(*p);
    const auto plan = gpu.placement(0, *p);
    ASSERT_TRUE(plan);
    EXPECT_TRUE(all(*plan, gpu::residency_t::device)) << plan->describe(groth16::gpu_prover_t::query_names);
  }
  {
    // A WindowPoSt set announced (not loaded) as large as the whole device:
    // the PoRep set placed before it leaves it the room and streams every
    // query, and still proves the CPU's bytes.
    gpu_backend_t gpu;
    gpu.claim_residency("wpost-32g", 3, gpu.describe(0).memory_total, nullptr);
    gpu.claim_residency("porep-2k", 2, p->bytes(), p.get());
    gpu.prepare(*p);
    const auto plan = gpu.placement(0, *p);
    ASSERT_TRUE(plan);
    EXPECT_TRUE(all(*plan, gpu::residency_t::pinned)) << plan->describe(groth16::gpu_prover_t::query_names);
    EXPECT_EQ(prove_on(gpu), on_cpu);
    // A WinningPoSt set ranks above the announced WindowPoSt set: it leaves
    // it nothing and lives on the device.
    const auto q = params_for("tiny");
    gpu.claim_residency("winning-2k", 4, q->bytes(), q.get());
    gpu.prepare(*q);
    const auto winning = gpu.placement(0, *q);
    ASSERT_TRUE(winning);
    EXPECT_TRUE(all(*winning, gpu::residency_t::device)) << winning->describe(groth16::gpu_prover_t::query_names);
  }
}

// Two sets on one device: their proofs share its prove workers, so the set
// built second plans the first one's working reserve when that is the larger
// (gpu_prover_options_t::reserve_floor), and both still prove the CPU's bytes.
TEST(engine_gpu, a_set_built_beside_another_keeps_the_larger_working_reserve) {
  if (!gpu_available()) GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA)";
  const auto big = params_for("hash-chain", small_chain);
  const auto tiny = params_for("tiny");
  const ff::fr_t r = ff::fr_t::from_u64(7), s = ff::fr_t::from_u64(8);
  auto prove_on = [&](prove_backend_t& b, const groth16::parameters_t& p, const circuits::any_circuit& c) {
    return b.finalize(0, p, b.prove_start(0, p, groth16::synthesize_witness(c)), r, s).encode();
  };
  auto chain = circuits::make_circuit("hash-chain", small_chain);
  auto small = circuits::make_circuit("tiny", 0);
  gpu_backend_t alone;
  alone.prepare(*tiny);
  const auto tiny_alone = alone.working_reserve(0, *tiny);
  ASSERT_TRUE(tiny_alone);
  gpu_backend_t gpu;
  gpu.prepare(*big);
  const auto big_reserve = gpu.working_reserve(0, *big);
  ASSERT_TRUE(big_reserve);
  ASSERT_GT(*big_reserve, *tiny_alone);
  gpu.prepare(*tiny);
  EXPECT_EQ(gpu.working_reserve(0, *tiny), big_reserve);
  EXPECT_EQ(gpu.working_reserve(0, *big), big_reserve);  // built first: its own
  EXPECT_EQ(prove_on(gpu, *tiny, *small), prove_on(*make_cpu_backend(), *tiny, *small));
  EXPECT_EQ(prove_on(gpu, *big, *chain), prove_on(*make_cpu_backend(), *big, *chain));
  // Forgotten, the first set's reserve no longer counts for a set built after.
  gpu.forget(*big);
  EXPECT_FALSE(gpu.working_reserve(0, *big));
}
