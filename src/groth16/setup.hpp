#pragma once
// Groth16 parameter generation on the CPU (Groth, "On the size of
// pairing-based non-interactive arguments", EUROCRYPT 2016, section 3.2), laid
// out as bellman's generate_parameters: QAP polynomials evaluated at tau through
// the Lagrange basis of the radix-2 domain, A/B queries without the points at
// infinity.
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

parameters_t generate_parameters(const circuits::any_circuit& circuit, const toxic_waste_t& tw);

}  // namespace cuzk::groth16
