// Fp12 arithmetic, Miller loop, final exponentiation and the full pairing on one core.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "ec/ec.hpp"
#include "pairing/pairing.hpp"

namespace {

using namespace cuzk;
using ff::fp12_t;

ec::g1_affine_t g1_point(uint64_t k) {
  return ec::g1_jacobian_t::from_affine(ec::g1_generator()).mul(ff::fr_t::from_u64(k)).to_affine();
}
ec::g2_affine_t g2_point(uint64_t k) {
  return ec::g2_jacobian_t::from_affine(ec::g2_generator()).mul(ff::fr_t::from_u64(k)).to_affine();
}

void fp12_mul(benchmark::State& st) {
  std::mt19937_64 rng(1);
  fp12_t a = fp12_t::random(rng), b = fp12_t::random(rng);
  for (auto _ : st) {
    a *= b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(fp12_mul);

void fp12_sqr(benchmark::State& st) {
  std::mt19937_64 rng(2);
  fp12_t a = fp12_t::random(rng);
  for (auto _ : st) {
    a = a.sqr();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(fp12_sqr);

void fp12_cyclotomic_sqr(benchmark::State& st) {
  std::mt19937_64 rng(3);
  fp12_t a = fp12_t::random(rng);
  a = a.conj() * a.inverse();
  a = a.frobenius_map(2) * a;
  for (auto _ : st) {
    a = a.cyclotomic_sqr();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(fp12_cyclotomic_sqr);

void fp12_mul_by_014(benchmark::State& st) {
  std::mt19937_64 rng(4);
  fp12_t a = fp12_t::random(rng);
  ff::fp2_t o0 = ff::fp2_t::random(rng), o1 = ff::fp2_t::random(rng), o4 = ff::fp2_t::random(rng);
  for (auto _ : st) {
    a = a.mul_by_014(o0, o1, o4);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(fp12_mul_by_014);

void fp12_inverse(benchmark::State& st) {
  std::mt19937_64 rng(5);
  fp12_t a = fp12_t::random(rng);
  for (auto _ : st) {
    a = a.inverse();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(fp12_inverse);

void g2_prepare(benchmark::State& st) {
  auto q = g2_point(7);
  for (auto _ : st) {
    pairing::g2_prepared_t prep(q);
    benchmark::DoNotOptimize(prep);
  }
}
BENCHMARK(g2_prepare);

void miller_loop(benchmark::State& st) {
  auto p = g1_point(5);
  auto q = g2_point(7);
  for (auto _ : st) benchmark::DoNotOptimize(pairing::miller_loop(p, q));
}
BENCHMARK(miller_loop);

void miller_loop_prepared(benchmark::State& st) {
  auto p = g1_point(5);
  pairing::g2_prepared_t q(g2_point(7));
  for (auto _ : st) benchmark::DoNotOptimize(pairing::miller_loop(p, q));
}
BENCHMARK(miller_loop_prepared);

// The Groth16 verifier's shape: a product of n Miller loops sharing squarings.
void multi_miller_loop(benchmark::State& st) {
  std::vector<pairing::affine_term_t> t;
  for (int64_t i = 0; i < st.range(0); ++i) t.emplace_back(g1_point(11 + i), g2_point(13 + i));
  for (auto _ : st) benchmark::DoNotOptimize(pairing::multi_miller_loop(t));
  st.SetItemsProcessed(st.iterations() * st.range(0));
}
BENCHMARK(multi_miller_loop)->Arg(1)->Arg(4)->Arg(16);

void final_exponentiation(benchmark::State& st) {
  fp12_t f = pairing::miller_loop(g1_point(5), g2_point(7));
  for (auto _ : st) benchmark::DoNotOptimize(pairing::final_exponentiation(f));
}
BENCHMARK(final_exponentiation);

void final_exponentiation_cube(benchmark::State& st) {
  fp12_t f = pairing::miller_loop(g1_point(5), g2_point(7));
  for (auto _ : st) benchmark::DoNotOptimize(pairing::final_exponentiation_cube(f));
}
BENCHMARK(final_exponentiation_cube);

void full_pairing(benchmark::State& st) {
  auto p = g1_point(5);
  auto q = g2_point(7);
  for (auto _ : st) benchmark::DoNotOptimize(pairing::pairing(p, q));
}
BENCHMARK(full_pairing);

}  // namespace
