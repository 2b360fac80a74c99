// Point arithmetic: dependent chains so each figure is one operation's latency.
#include <benchmark/benchmark.h>

#include <random>

#include "ec/ec.hpp"

using namespace cuzk::ec;

template <class C>
affine_t<C> random_point(std::mt19937_64& rng);
template <>
g1_affine_t random_point<g1_curve>(std::mt19937_64& rng) {
  return g1_jacobian_t::from_affine(g1_generator()).mul(fr_t::random(rng)).to_affine();
}
template <>
g2_affine_t random_point<g2_curve>(std::mt19937_64& rng) {
  return g2_jacobian_t::from_affine(g2_generator()).mul(fr_t::random(rng)).to_affine();
}

template <class C>
static void bm_add_jacobian(benchmark::State& st) {
  std::mt19937_64 rng(1);
  auto p = jacobian_t<C>::from_affine(random_point<C>(rng));
  auto q = jacobian_t<C>::from_affine(random_point<C>(rng)).dbl();
  for (auto _ : st) benchmark::DoNotOptimize(p = p + q);
}
template <class C>
static void bm_add_mixed(benchmark::State& st) {
  std::mt19937_64 rng(2);
  auto p = jacobian_t<C>::from_affine(random_point<C>(rng)).dbl();
  auto q = random_point<C>(rng);
  for (auto _ : st) benchmark::DoNotOptimize(p = p.add_mixed(q));
}
template <class C>
static void bm_xyzz_add_mixed(benchmark::State& st) {
  std::mt19937_64 rng(3);
  xyzz_t<C> acc = xyzz_t<C>::infinity();
  acc.add_mixed(random_point<C>(rng));
  auto q = random_point<C>(rng);
  for (auto _ : st) {
    acc.add_mixed(q);
    benchmark::DoNotOptimize(acc);
  }
}
template <class C>
static void bm_double(benchmark::State& st) {
  std::mt19937_64 rng(4);
  auto p = jacobian_t<C>::from_affine(random_point<C>(rng));
  for (auto _ : st) benchmark::DoNotOptimize(p = p.dbl());
}
template <class C>
static void bm_subgroup_check(benchmark::State& st) {
  std::mt19937_64 rng(5);
  auto p = random_point<C>(rng);
  for (auto _ : st) benchmark::DoNotOptimize(in_subgroup(p));
}
template <class C>
static void bm_decompress(benchmark::State& st) {
  std::mt19937_64 rng(6);
  auto bytes = compress(random_point<C>(rng));
  affine_t<C> out;
  for (auto _ : st) benchmark::DoNotOptimize(decode(bytes, out));
}

BENCHMARK(bm_add_jacobian<g1_curve>)->Name("g1_add_jacobian");
BENCHMARK(bm_add_mixed<g1_curve>)->Name("g1_add_mixed");
BENCHMARK(bm_xyzz_add_mixed<g1_curve>)->Name("g1_xyzz_add_mixed");
BENCHMARK(bm_double<g1_curve>)->Name("g1_double");
BENCHMARK(bm_subgroup_check<g1_curve>)->Name("g1_subgroup_check");
BENCHMARK(bm_decompress<g1_curve>)->Name("g1_decompress_checked");
BENCHMARK(bm_add_jacobian<g2_curve>)->Name("g2_add_jacobian");
BENCHMARK(bm_add_mixed<g2_curve>)->Name("g2_add_mixed");
BENCHMARK(bm_xyzz_add_mixed<g2_curve>)->Name("g2_xyzz_add_mixed");
BENCHMARK(bm_double<g2_curve>)->Name("g2_double");
BENCHMARK(bm_subgroup_check<g2_curve>)->Name("g2_subgroup_check");
BENCHMARK(bm_decompress<g2_curve>)->Name("g2_decompress_checked");
