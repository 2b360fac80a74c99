#pragma once
// The Groth16 prover, split where the pipeline splits it (DESIGN.md section 2):
//   prove_start: H = (A B - C) / Z by NTTs, the G1 MSMs over H, L, A, B_g1, and
//                the B_g2 MSM launched on its own thread; a, b, c are released
//                before it returns.
//   finalize:    joins B_g2, draws nothing itself (r, s are arguments), and
//                assembles A = alpha + sum a_i A_i + r delta,
//                B = beta + sum b_i B_i + s delta,
//                C = sum_aux w_i L_i + sum h_i H_i + s A + r B1 - r s delta.
#include <future>
#include <string>
#include <utility>
#include <vector>

#include "circuits/any_circuit.hpp"
#include "groth16/parameters_t.hpp"
#include "groth16/proof_t.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::groth16 {

// What finalize needs: five G1 sums and the pending G2 sum. Owns no witness data.
struct pending_proof_t {
  ec::g1_jacobian_t h, l, a, b_g1;
  std::future<ec::g2_jacobian_t> b_g2;
  std::vector<fr_t> public_inputs;  // without ONE
  // Milliseconds per step of prove_start, in order (groth16/step_timer_t.hpp;
  // the engine adds them to its timeline as "prove_start.<step>").
  std::vector<std::pair<std::string, double>> stage_ms;
};

// Synthesizes the witness of a circuit: a, b, c evaluations and densities, with
// bellman's input constraints appended. Throws if a value cannot be computed.
r1cs::witness_cs synthesize_witness(const circuits::any_circuit& circuit);

// Throws std::invalid_argument when the witness does not satisfy the circuit
// (naming the first failing row) or the parameters do not fit the circuit.
pending_proof_t prove_start(const parameters_t& params, r1cs::witness_cs&& witness);

proof_t finalize(const parameters_t& params, pending_proof_t&& pending, const fr_t& r, const fr_t& s);

template <class Rng>
proof_t prove(const parameters_t& params, const circuits::any_circuit& circuit, Rng& rng) {
  auto pending = prove_start(params, synthesize_witness(circuit));
  fr_t r = fr_t::random(rng), s = fr_t::random(rng);
  return finalize(params, std::move(pending), r, s);
}

}  // namespace cuzk::groth16
