#include "groth16/setup.hpp"

#include <tbb/parallel_for.h>

#include <stdexcept>

#include "ec/ec.hpp"
#include "poly/poly.hpp"
#include "r1cs/r1cs.hpp"

namespace cuzk::groth16 {
namespace {

using ec::g1_curve;
using ec::g2_curve;

// Fixed-base multiplication of many scalars, in parallel, straight to affine.
template <class C>
std::vector<ec::affine_t<C>> batch_mul(const ec::fixed_base_t<C>& table, std::span<const fr_t> scalars) {
  std::vector<ec::affine_t<C>> out(scalars.size());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, scalars.size(), 4096), [&](const auto& r) {
    std::vector<ec::jacobian_t<C>> tmp(r.size());
    for (size_t i = r.begin(); i < r.end(); ++i) tmp[i - r.begin()] = table.mul(scalars[i]);
    auto aff = ec::batch_to_affine(std::span<const ec::jacobian_t<C>>(tmp));
    std::copy(aff.begin(), aff.end(), out.begin() + std::ptrdiff_t(r.begin()));
  });
  return out;
}

// Column j evaluated at tau: sum of coeff * L_row(tau).
std::vector<fr_t> eval_columns(const r1cs::column_matrix& m, std::span<const fr_t> lagrange) {
  std::vector<fr_t> out(m.num_columns());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, out.size(), 1024), [&](const auto& r) {
    for (size_t j = r.begin(); j < r.end(); ++j) {
      fr_t acc = fr_t::zero();
      for (const auto& e : m.column(j)) acc += e.coeff * lagrange[e.row];
      out[j] = acc;
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
                                 const setup_muls_t& muls) {
  r1cs::keygen_cs cs;
  circuit.synthesize(cs);
  cs.add_input_constraints();
  const size_t n_inputs = cs.num_inputs(), n_aux = cs.num_aux();
  poly::domain_t d = poly::domain_t::for_size(cs.num_constraints());
  if (d.n < 2) d = poly::domain_t(1);

  // tau^i for i < n, interpolated: the values L_i(tau) of the Lagrange basis of H.
  std::vector<fr_t> powers(d.n);
  fr_t t = fr_t::one();
  for (auto& p : powers) {
    p = t;
    t *= tw.tau;
  }
  const fr_t z_tau = t - fr_t::one();  // Z(tau) = tau^n - 1
  std::vector<fr_t> lagrange = powers;
  poly::intt(d, lagrange);

  const fr_t gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  ec::fixed_base_t<g1_curve> g1(ec::g1_generator());
  ec::fixed_base_t<g2_curve> g2(ec::g2_generator());
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

  // H query: tau^i Z(tau) / delta for i < n - 1.
  const fr_t zd = z_tau * delta_inv;
  std::vector<fr_t> h_scalars(d.n - 1);
  for (size_t i = 0; i + 1 < d.n; ++i) h_scalars[i] = powers[i] * zd;
  p.h = mul_g1(h_scalars);

  auto at = eval_columns(cs.a_columns(), lagrange);
  auto bt = eval_columns(cs.b_columns(), lagrange);
  auto ct = eval_columns(cs.c_columns(), lagrange);

  // (beta A_j + alpha B_j + C_j) / gamma for inputs, / delta for aux.
  std::vector<fr_t> ic_s(n_inputs), l_s(n_aux);
  for (size_t j = 0; j < n_inputs + n_aux; ++j) {
    fr_t v = tw.beta * at[j] + tw.alpha * bt[j] + ct[j];
    if (j < n_inputs) ic_s[j] = v * gamma_inv;
    else l_s[j - n_inputs] = v * delta_inv;
  }
  vk.ic = mul_g1(ic_s);
  p.l = mul_g1(l_s);
  for (const auto& q : vk.ic)
    if (q.is_inf()) throw std::runtime_error("setup: an input has a zero IC term (unused public input?)");
  for (const auto& q : p.l)
    if (q.is_inf()) throw std::runtime_error("setup: an aux variable has a zero L term (unconstrained variable?)");

  // A keeps every input (the input constraints make them nonzero), then
  // nonzero aux; B keeps nonzero inputs and nonzero aux, as the prover's
  // density bitmaps expect.
  auto a_nz = nonzero<fr_t>(at);
  auto b_nz = nonzero<fr_t>(bt);
  p.a = mul_g1(a_nz);
  p.b_g1 = mul_g1(b_nz);
  p.b_g2 = mul_g2(b_nz);
  return p;
}

}  // namespace cuzk::groth16
