#pragma once
// Test helper: deterministic curve points outside the prime-order subgroup.
#include <cstdint>
#include <type_traits>

#include "ec/ec.hpp"

namespace cuzk::test {

// Deterministic curve points off the prime-order subgroup: the first small x
// with x^3 + b a square whose point fails the multiplication-by-r test.
template <class C>
ec::affine_t<C> small_point_outside_subgroup() {
  using F = typename C::field_t;
  for (uint64_t k = 0;; ++k) {
    F x;
    if constexpr (std::is_same_v<F, ff::fp_t>) x = ff::fp_t::from_u64(k);
    else x = ff::fp2_t{ff::fp_t::from_u64(k), ff::fp_t::zero()};
    auto y = (x.sqr() * x + C::b()).sqrt();
    if (!y) continue;
    ec::affine_t<C> p{x, *y};
    if (p.is_on_curve() && !ec::in_subgroup_by_order(p)) return p;
  }
}

}  // namespace cuzk::test
