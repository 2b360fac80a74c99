#pragma once
// prove_start on the GPU, behind the same pending_proof_t / finalize API as
// the CPU prover (prover.hpp), so its proofs verify with our verifier and,
// for the same r and s, are byte-identical to the CPU's.
//
// The H, L, A, B_g1 and B_g2 bases (and the NTT domain's tables) are uploaded
// once, when the prover is built, and stay resident for every proof
// (gpu::msm_bases). Per proof: H = (AB - C)/Z by
// gpu::compute_h_resident (a, b, c up through pinned staging, H left on the
// device for its MSM); the L, A, B_g1 and B_g2 MSMs run meanwhile on their
// own threads and streams (the A and B queries' scalars compacted to their
// density on the device). Every result is in before prove_start returns.
// Throws like prove_start; std::runtime_error where there is no GPU.
#include "groth16/parameters_t.hpp"
#include "groth16/prover.hpp"
#include "gpu/msm_bases.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::groth16 {

class gpu_prover_t {
 public:
  // params must outlive the prover. overlap = false runs every step in turn
  // on the calling thread, so stage_ms holds each step's own time (the
  // per-stage breakdown of bench/groth16/bench_gpu_prove_start.cpp).
  explicit gpu_prover_t(const parameters_t& params, bool overlap = true);

  pending_proof_t prove_start(r1cs::witness_cs&& witness) const;

 private:
  const parameters_t& params_;
  bool overlap_;
  gpu::msm_bases<ec::g1_curve> h_, l_, a_, b_g1_;
  gpu::msm_bases<ec::g2_curve> b_g2_;
};

}  // namespace cuzk::groth16
