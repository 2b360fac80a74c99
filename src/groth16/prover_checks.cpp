#include "groth16/prover_checks.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::groth16 {
namespace {

void expect_size(std::size_t have, std::size_t want, const char* what) {
  if (have != want) {
    throw std::invalid_argument(std::string("parameters do not match the circuit: ") + what + " has " +
                                std::to_string(have) + " points, the circuit needs " + std::to_string(want));
  }
}

}  // namespace

void check_parameters_fit(const parameters_t& params, const r1cs::witness_cs& w, std::size_t domain_n) {
  const std::size_t n_inputs = w.num_inputs();
  expect_size(params.vk.ic.size(), n_inputs, "vk.ic");
  expect_size(params.h.size(), domain_n - 1, "h");
  expect_size(params.l.size(), w.num_aux(), "l");
  expect_size(params.a.size(), n_inputs + w.a_aux_density().total_density(), "a");
  expect_size(params.b_g1.size(), w.b_input_density().total_density() + w.b_aux_density().total_density(), "b_g1");
  expect_size(params.b_g2.size(), params.b_g1.size(), "b_g2");
}

void check_satisfied(std::span<const ff::fr_t> a, std::span<const ff::fr_t> b, std::span<const ff::fr_t> c) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!(a[i] * b[i] == c[i])) {
      throw std::invalid_argument("witness does not satisfy constraint " + std::to_string(i) +
                                  " (A*B != C); run the circuit in test mode to name it");
    }
  }
}

qap_evaluations_t take_checked_evaluations(const parameters_t& params, r1cs::witness_cs& w) {
  poly::domain_t d = poly::domain_t::for_size(w.num_constraints());
  if (d.n < 2) d = poly::domain_t(1);
  check_parameters_fit(params, w, d.n);
  qap_evaluations_t e{d, w.take_a(), w.take_b(), w.take_c()};
  check_satisfied(e.a, e.b, e.c);
  // fr_vector leaves new elements unwritten: the padding rows must be zeros.
  e.a.resize(d.n, ff::fr_t::zero());
  e.b.resize(d.n, ff::fr_t::zero());
  e.c.resize(d.n, ff::fr_t::zero());
  return e;
}

}  // namespace cuzk::groth16
