#pragma once
// Random bases and scalars for the GPU MSM tests: A + i·B for random A, B
// (distinct points without one scalar multiplication each).
#include <random>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fr.hpp"

namespace cuzk::gpu::test {

template <class C>
ec::affine_t<C> generator_of() {
  if constexpr (std::is_same_v<C, ec::g1_curve>) return ec::g1_generator();
  else return ec::g2_generator();
}

template <class C>
std::vector<ec::affine_t<C>> random_points(size_t n, std::mt19937_64& rng) {
  using J = ec::jacobian_t<C>;
  J g = J::from_affine(generator_of<C>());
  J p = g.mul(ff::fr_t::random(rng)), step = g.mul(ff::fr_t::random(rng));
  std::vector<J> pts(n);
  for (size_t i = 0; i < n; ++i, p += step) pts[i] = p;
  return ec::batch_to_affine<C>(pts);
}

inline std::vector<ff::fr_t> random_frs(size_t n, std::mt19937_64& rng) {
  std::vector<ff::fr_t> s(n);
  for (auto& x : s) x = ff::fr_t::random(rng);
  return s;
}

}  // namespace cuzk::gpu::test
