#include "groth16/setup.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>

#include "ec/ec.hpp"
#include "groth16/step_timer_t.hpp"
#include "poly/poly.hpp"
#include "r1cs/r1cs.hpp"

namespace cuzk::groth16 {
namespace {

using ec::g1_curve;
using ec::g2_curve;

// Fixed-base multiplication of many scalars, in parallel chunks, straight to affine.
template <class C>
std::vector<ec::affine_t<C>> batch_mul(const ec::fixed_base_t<C>& table, std::span<const fr_t> scalars) {
  std::vector<ec::affine_t<C>> out(scalars.size());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, scalars.size(), 8192), [&](const auto& r) {
    table.mul_batch(scalars.subspan(r.begin(), r.size()), std::span(out).subspan(r.begin(), r.size()));
  });
  return out;
}

// tau^i for i < n, in parallel chunks each starting from tau^(chunk start).
std::vector<fr_t> powers_of(const fr_t& tau, size_t n) {
  std::vector<fr_t> out(n);
  constexpr size_t chunk = size_t(1) << 16;
  tbb::parallel_for(size_t(0), (n + chunk - 1) / chunk, [&](size_t k) {
    fr_t t = tau.pow(uint64_t(k * chunk));
    for (size_t i = k * chunk; i < std::min(n, (k + 1) * chunk); ++i) {
      out[i] = t;
      t *= tau;
    }
  });
  return out;
}

template <class T>
std::vector<T> nonzero(std::span<const fr_t> v) {
  std::vector<T> out;
  for (const auto& x : v)
    if (!x.is_zero()) out.push_back(x);
  return out;
}

}  // namespace

parameters_t generate_parameters(const circuits::any_circuit& circuit, const toxic_waste_t& tw,
                                 const setup_muls_t& muls, std::vector<std::pair<std::string, double>>* stage_ms) {
  std::vector<std::pair<std::string, double>> unused;
  step_timer_t steps(stage_ms ? *stage_ms : unused);
  const r1cs::shape_counts_t shape = circuit.prove_shape();
  const size_t n_inputs = shape.num_inputs, n_aux = shape.num_aux;
  poly::domain_t d = poly::domain_t::for_size(shape.num_constraints);
  if (d.n < 2) d = poly::domain_t(1);

  // tau^i for i < n, interpolated: the values L_i(tau) of the Lagrange basis of H.
  std::vector<fr_t> powers = powers_of(tw.tau, d.n);
  const fr_t z_tau = powers.back() * tw.tau - fr_t::one();  // Z(tau) = tau^n - 1
  steps.lap("shape_powers");

  const fr_t gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  // Windows sized to the largest batch against each base: G1's is the H
  // query or the L query, G2's at most every variable (B is a subset).
  const size_t n_vars = n_inputs + n_aux;
  const auto g1 = ec::fixed_base_t<g1_curve>::for_batch(ec::g1_generator(), muls.g1 ? 0 : std::max(d.n, n_vars));
  const auto g2 = ec::fixed_base_t<g2_curve>::for_batch(ec::g2_generator(), muls.g2 ? 0 : n_vars);
  steps.lap("tables");
  auto mul_g1 = [&](std::span<const fr_t> s) { return muls.g1 ? muls.g1(s) : batch_mul(g1, s); };
  auto mul_g2 = [&](std::span<const fr_t> s) { return muls.g2 ? muls.g2(s) : batch_mul(g2, s); };

  parameters_t p;
  auto& vk = p.vk;
  vk.alpha_g1 = g1.mul(tw.alpha).to_affine();
  vk.beta_g1 = g1.mul(tw.beta).to_affine();
  vk.beta_g2 = g2.mul(tw.beta).to_affine();
  vk.gamma_g2 = g2.mul(tw.gamma).to_affine();
  vk.delta_g1 = g1.mul(tw.delta).to_affine();
  vk.delta_g2 = g2.mul(tw.delta).to_affine();

  // H query: tau^i Z(tau) / delta for i < n - 1. Each large vector is freed
  // as soon as it is used: at 2^27 rows every one is 4 GiB.
  r1cs::qap_columns_t cols;
  {
    const fr_t zd = z_tau * delta_inv;
    std::vector<fr_t> h_scalars(d.n - 1);
    tbb::parallel_for(tbb::blocked_range<size_t>(0, h_scalars.size(), 1 << 14), [&](const auto& r) {
      for (size_t i = r.begin(); i < r.end(); ++i) h_scalars[i] = powers[i] * zd;
    });
    p.h = mul_g1(h_scalars);
    steps.lap("h");
    std::vector<fr_t> lagrange = std::move(powers);
    poly::intt(d, lagrange);
    steps.lap("lagrange");
    cols = circuit.qap_columns(lagrange);
    steps.lap("columns");
  }
  if (cols.a.size() != n_inputs + n_aux || cols.b.size() != cols.a.size() || cols.c.size() != cols.a.size()) {
    throw std::logic_error("setup: the circuit's columns do not match its shape");
  }

  // (beta A_j + alpha B_j + C_j) / gamma for inputs, / delta for aux.
  std::vector<fr_t> ic_s(n_inputs), l_s(n_aux);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n_inputs + n_aux, 1 << 14), [&](const auto& r) {
    for (size_t j = r.begin(); j < r.end(); ++j) {
      const fr_t v = tw.beta * cols.a[j] + tw.alpha * cols.b[j] + cols.c[j];
      if (j < n_inputs) ic_s[j] = v * gamma_inv;
      else l_s[j - n_inputs] = v * delta_inv;
    }
  });
  std::vector<fr_t>().swap(cols.c);
  vk.ic = mul_g1(ic_s);
  p.l = mul_g1(l_s);
  std::vector<fr_t>().swap(l_s);
  for (const auto& q : vk.ic)
    if (q.is_inf()) throw std::runtime_error("setup: an input has a zero IC term (unused public input?)");
  for (const auto& q : p.l)
    if (q.is_inf()) throw std::runtime_error("setup: an aux variable has a zero L term (unconstrained variable?)");
  steps.lap("ic_l");

  // A keeps every input (the input constraints make them nonzero), then
  // nonzero aux; B keeps nonzero inputs and nonzero aux, as the prover's
  // density bitmaps expect.
  {
    const auto a_nz = nonzero<fr_t>(cols.a);
    std::vector<fr_t>().swap(cols.a);
    p.a = mul_g1(a_nz);
  }
  steps.lap("a");
  const auto b_nz = nonzero<fr_t>(cols.b);
  std::vector<fr_t>().swap(cols.b);
  p.b_g1 = mul_g1(b_nz);
  steps.lap("b_g1");
  p.b_g2 = mul_g2(b_nz);
  steps.lap("b_g2");
  return p;
}

}  // namespace cuzk::groth16
