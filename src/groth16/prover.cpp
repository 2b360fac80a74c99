#include "groth16/prover.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include "groth16/prover_checks.hpp"
#include "groth16/step_timer_t.hpp"
#include "msm/msm.hpp"
#include "poly/poly.hpp"

namespace cuzk::groth16 {
namespace {

msm::density_view view(const r1cs::density_tracker& d) { return {d.words(), d.size()}; }

}  // namespace

r1cs::witness_cs synthesize_witness(const circuits::any_circuit& circuit) {
  r1cs::witness_cs cs;
  circuit.synthesize(cs);
  cs.add_input_constraints();
  return cs;
}

pending_proof_t prove_start(const parameters_t& params, r1cs::witness_cs&& w) {
  pending_proof_t out;
  step_timer_t steps(out.stage_ms);
  const size_t n_inputs = w.num_inputs();
  if (w.is_deferred()) {
    w.materialize();
    steps.lap("rows");
  }
  auto [d, a, b, c] = take_checked_evaluations(query_sizes_t::of(params), w);
  const size_t b_inputs = w.b_input_density().total_density();
  steps.lap("checks");
  poly::compute_h(d, a, b, c);
  r1cs::fr_vector().swap(b);
  r1cs::fr_vector().swap(c);
  steps.lap("compute_h");

  // Shared with the B_g2 thread, which may outlive this frame until finalize.
  auto inputs = std::make_shared<const std::vector<msm::scalar_limbs_t>>(msm::to_canonical(w.input_assignment()));
  auto aux = std::make_shared<const std::vector<msm::scalar_limbs_t>>(msm::to_canonical(w.aux_assignment()));
  const std::span<const msm::scalar_limbs_t> in_s(*inputs), aux_s(*aux);

  out.public_inputs.assign(w.input_assignment().begin() + 1, w.input_assignment().end());
  // B_g2 is the costliest MSM per point; it runs beside the G1 work.
  auto bg2_in = std::span(params.b_g2).first(b_inputs);
  auto bg2_aux = std::span(params.b_g2).subspan(b_inputs);
  out.b_g2 = std::async(std::launch::async, [bg2_in, bg2_aux, inputs, aux, bi = w.b_input_density(),
                                             ba = w.b_aux_density()] {
    auto s = msm::msm_dense<ec::g2_curve>(bg2_in, std::span<const msm::scalar_limbs_t>(*inputs), view(bi));
    return s + msm::msm_dense<ec::g2_curve>(bg2_aux, std::span<const msm::scalar_limbs_t>(*aux), view(ba));
  });

  auto h_s = msm::to_canonical(std::span<const fr_t>(a).first(d.n - 1));
  r1cs::fr_vector().swap(a);
  out.h = msm::msm<ec::g1_curve>(params.h, std::span<const msm::scalar_limbs_t>(h_s));
  steps.lap("msm_h");
  out.l = msm::msm<ec::g1_curve>(params.l, aux_s);
  steps.lap("msm_l");
  out.a = msm::msm<ec::g1_curve>(std::span(params.a).first(n_inputs), in_s) +
          msm::msm_dense<ec::g1_curve>(std::span(params.a).subspan(n_inputs), aux_s, view(w.a_aux_density()));
  steps.lap("msm_a");
  out.b_g1 = msm::msm_dense<ec::g1_curve>(std::span(params.b_g1).first(b_inputs), in_s, view(w.b_input_density())) +
             msm::msm_dense<ec::g1_curve>(std::span(params.b_g1).subspan(b_inputs), aux_s, view(w.b_aux_density()));
  steps.lap("msm_b_g1");  // B_g2 runs beside these steps; finalize waits for it
  return out;
}

proof_t finalize(const parameters_t& params, pending_proof_t&& p, const fr_t& r, const fr_t& s) {
  using J1 = ec::g1_jacobian_t;
  using J2 = ec::g2_jacobian_t;
  const auto& vk = params.vk;
  const J1 delta1 = J1::from_affine(vk.delta_g1);
  J1 g_a = delta1.mul(r).add_mixed(vk.alpha_g1) + p.a;
  J2 g_b = J2::from_affine(vk.delta_g2).mul(s).add_mixed(vk.beta_g2) + p.b_g2.get();
  // r s delta + s alpha + r beta + s sum(A) + r sum(B1) + H + L
  J1 g_c = delta1.mul(r * s) + J1::from_affine(vk.alpha_g1).mul(s) + J1::from_affine(vk.beta_g1).mul(r);
  g_c += p.a.mul(s) + p.b_g1.mul(r) + p.h + p.l;
  return {g_a.to_affine(), g_b.to_affine(), g_c.to_affine()};
}

}  // namespace cuzk::groth16
