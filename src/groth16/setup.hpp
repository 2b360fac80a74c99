#pragma once
// Groth16 parameter generation on the CPU (Groth, "On the size of
// pairing-based non-interactive arguments", EUROCRYPT 2016, section 3.2), laid
// out as bellman's generate_parameters: QAP polynomials evaluated at tau through
// the Lagrange basis of the radix-2 domain, A/B queries without the points at
// infinity.
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "circuits/any_circuit.hpp"
#include "groth16/parameters_t.hpp"

namespace cuzk::groth16 {

struct toxic_waste_t {
  fr_t tau, alpha, beta, gamma, delta;

  // Zero is redrawn: it would make the keys degenerate.
  template <class Rng>
  static toxic_waste_t random(Rng& rng) {
    auto draw = [&] {
      for (;;) {
        fr_t v = fr_t::random(rng);
        if (!v.is_zero()) return v;
      }
    };
    toxic_waste_t t;
    t.tau = draw();
    t.alpha = draw();
    t.beta = draw();
    t.gamma = draw();
    t.delta = draw();
    return t;
  }
};

// The batched fixed-base multiplications of a setup, scalars times the G1 or
// G2 generator straight to affine. Empty = on the CPU (ec::fixed_base_t and
// TBB); gpu_setup.hpp supplies the GPU's. Any implementation must return the
// same points, so the parameters do not depend on where they were computed.
struct setup_muls_t {
  std::function<std::vector<g1_affine_t>(std::span<const fr_t>)> g1;
  std::function<std::vector<g2_affine_t>(std::span<const fr_t>)> g2;
};

// Each step's wall time (shape_powers, tables, h, lagrange, columns, ic_l, a, b_g1,
// b_g2) is appended to *stage_ms when given.
parameters_t generate_parameters(const circuits::any_circuit& circuit, const toxic_waste_t& tw,
                                 const setup_muls_t& muls = {},
                                 std::vector<std::pair<std::string, double>>* stage_ms = nullptr);

}  // namespace cuzk::groth16
