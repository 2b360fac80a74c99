// Groth16 with prove_start on the GPU: a hash-chain proof verifies, and with
// the same r, s it is byte-identical to the CPU prover's. Skipped without a GPU.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>


#include "circuits/circuits.hpp"
#include "gpu/device.hpp"
#include "groth16/gpu_prover.hpp"
#include "groth16/groth16.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using namespace cuzk::groth16;

namespace {

// A hash-chain circuit, its parameters and r, s, from a printed seed.
struct hash_chain_case {
  std::unique_ptr<circuits::any_circuit> circuit;
  seeded_rng rng;
  parameters_t params;
  fr_t r, s;
  explicit hash_chain_case(const char* what, size_t rows = 3000)
      : circuit(circuits::make_circuit("hash-chain", rows)),
        rng(test::seed(what)),
        params(generate_parameters(*circuit, toxic_waste_t::random(rng))),
        r(fr_t::random(rng)),
        s(fr_t::random(rng)) {}
};

}  // namespace

TEST(gpu_prover, hash_chain_verifies_and_matches_cpu_bytes) {
  if (gpu::device_count() == 0)
    GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA): GPU test skipped";
  const hash_chain_case t("gpu_prover");
  const auto& [circuit, rng, params, r, s] = t;

  gpu_prover_t gpu(params);
  const proof_t on_gpu = finalize(params, gpu.prove_start(synthesize_witness(*circuit)), r, s);
  const proof_t on_cpu = finalize(params, prove_start(params, synthesize_witness(*circuit)), r, s);
  EXPECT_EQ(on_gpu.encode(), on_cpu.encode());

  const auto inputs = circuit->public_inputs();
  prepared_vk_t pvk(params.vk);
  EXPECT_TRUE(pvk.verify(on_gpu, inputs));
  auto bad = inputs;
  bad[0] += fr_t::one();
  EXPECT_FALSE(pvk.verify(on_gpu, bad));

  // The resident bases serve a second proof.
  const proof_t again = finalize(params, gpu.prove_start(synthesize_witness(*circuit)), r, s);
  EXPECT_EQ(again.encode(), on_cpu.encode());

  // Steps in turn (the breakdown mode) give the same bytes and name every step.
  gpu_prover_options_t turn_options;
  turn_options.overlap = false;
  gpu_prover_t in_turn(params, turn_options);
  auto pending = in_turn.prove_start(synthesize_witness(*circuit));
  std::vector<std::string> names;
  for (const auto& [name, ms] : pending.stage_ms) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"checks", "upload_aux", "compact_b", "compute_h.queue", "compute_h.upload",
                                             "compute_h.transforms", "msm_h", "msm_l", "msm_a", "msm_b_g1", "msm_b_g2"}));
  EXPECT_EQ(finalize(params, std::move(pending), r, s).encode(), on_cpu.encode());

  // MSMs one at a time, each releasing its scratch: the same bytes, twice
  // (the second proof grows the released scratch again).
  gpu_prover_options_t lean_options;
  lean_options.msm_scratch = gpu_prover_options_t::msm_scratch_t::one_at_a_time;
  gpu_prover_t lean(params, lean_options);
  EXPECT_TRUE(lean.one_msm_at_a_time());
  EXPECT_FALSE(gpu.one_msm_at_a_time());  // auto, and every query fits beside five scratches
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(finalize(params, lean.prove_start(synthesize_witness(*circuit)), r, s).encode(), on_cpu.encode()) << k;
  }

  // Shorter accumulation chunks ([gpus] msm_threads): the smallest and the
  // largest thread counts allowed give the same bytes.
  for (size_t threads : {size_t(1) << 12, size_t(1) << 22}) {
    gpu_prover_options_t o;
    o.msm_threads = threads;
    gpu_prover_t many(params, o);
    EXPECT_EQ(finalize(params, many.prove_start(synthesize_witness(*circuit)), r, s).encode(), on_cpu.encode())
        << threads << " threads";
  }
  // The H MSM at the widest window ([gpus] h_window_bits): the same bytes.
  gpu_prover_options_t wide;
  wide.h_window_bits = 22;
  gpu_prover_t wide_h(params, wide);
  EXPECT_EQ(finalize(params, wide_h.prove_start(synthesize_witness(*circuit)), r, s).encode(), on_cpu.encode())
      << "h_window_bits 22";
}

// A witness page-locked in place (what the engine does after synthesis) is
// uploaded by DMA and gives the same bytes; prove_start frees a, b, c and the
// aux assignment, which unlocks them. 70000 rows: buffers of >= 2 MiB, the
// smallest pin_witness locks.
TEST(gpu_prover, pinned_witness_gives_the_same_proof_and_is_unlocked) {
  if (gpu::device_count() == 0)
    GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA): GPU test skipped";
  const hash_chain_case t("gpu_prover_pinned_witness", 70000);
  const auto& [circuit, rng, params, r, s] = t;
  const auto on_cpu = finalize(params, prove_start(params, synthesize_witness(*circuit)), r, s).encode();

  gpu_prover_t gpu(params);
  const size_t base = gpu::pinned_bytes();
  auto w = synthesize_witness(*circuit);
  size_t locked = 0;
  for (const auto* v : {&w.a(), &w.b(), &w.c(), &w.aux_assignment()}) {
    const size_t bytes = v->capacity() * sizeof(fr_t);
    if (bytes >= r1cs::fr_vector::allocator_type::huge_page) locked += bytes / 4096 * 4096;
  }
  ASSERT_GE(locked, 3 * r1cs::fr_vector::allocator_type::huge_page);  // a, b, c at least
  gpu_prover_t::pin_witness(w);
  EXPECT_EQ(gpu::pinned_bytes(), base + locked);
  EXPECT_EQ(finalize(params, gpu.prove_start(std::move(w)), r, s).encode(), on_cpu);
  EXPECT_EQ(gpu::pinned_bytes(), base);
}

// Every residency tier gives the same proof bytes. Windows of 1000 points
// split each streamed query into several windows (the hash-chain circuit of
// 3000 rows has queries of ~3000-4096 points), so the window switching, the
// last short window and the offsets of A and B (inputs, then aux) are covered.
TEST(gpu_prover, every_residency_tier_gives_the_same_proof) {
  if (gpu::device_count() == 0)
    GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 (or built without CUDA): GPU test skipped";
  const hash_chain_case t("gpu_prover_residency");
  const auto& [circuit, rng, params, r, s] = t;
  const auto on_cpu = finalize(params, prove_start(params, synthesize_witness(*circuit)), r, s).encode();
  for (const char* mode : {"device", "pinned", "pageable", "auto"}) {
    SCOPED_TRACE(mode);
    gpu_prover_options_t o;
    o.residency = gpu::residency_policy_t::parse(mode);
    o.window_points = 1000;
    gpu_prover_t gpu(params, o);
    const auto& tiers = gpu.residency().tiers;
    ASSERT_EQ(tiers.size(), 5u);
    for (auto t : tiers) {
      if (o.residency.forced) EXPECT_EQ(t, *o.residency.forced);
      else EXPECT_EQ(t, gpu::residency_t::device);  // a few MB fit on any GPU
    }
    // Twice: the second proof finds the windows and pins of the first.
    for (int k = 0; k < 2; ++k)
      EXPECT_EQ(finalize(params, gpu.prove_start(synthesize_witness(*circuit)), r, s).encode(), on_cpu);
  }
  // Two provers may pin the same parameters (two GPUs, or one rebuilt).
  gpu_prover_options_t pinned;
  pinned.residency = gpu::residency_policy_t::parse("pinned");
  gpu_prover_t first(params, pinned), second(params, pinned);
  EXPECT_EQ(finalize(params, second.prove_start(synthesize_witness(*circuit)), r, s).encode(), on_cpu);

  // A device tier that cannot fit is refused when the prover is built.
  gpu_prover_options_t too_big;
  too_big.residency = gpu::residency_policy_t::parse("device", uint64_t(1) << 60);
  EXPECT_THROW(gpu_prover_t(params, too_big), std::runtime_error);
}
