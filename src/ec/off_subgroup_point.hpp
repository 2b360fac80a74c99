#pragma once
// Deterministic curve points OUTSIDE the prime-order subgroup, for tests and
// fuzz corpora that check rejection: the first x = 0, 1, ... with x^3 + b a
// square whose point fails the multiplication-by-r test (the slow check, so
// the fast endomorphism check can be tested against it).
#include <cstdint>
#include <type_traits>

#include "ec/curves.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::ec {

template <class C>
affine_t<C> off_subgroup_point() {
  using F = typename C::field_t;
  for (uint64_t k = 0;; ++k) {
    F x;
    if constexpr (std::is_same_v<F, fp_t>) x = fp_t::from_u64(k);
    else x = fp2_t{fp_t::from_u64(k), fp_t::zero()};
    if (auto y = (x.sqr() * x + C::b()).sqrt()) {
      affine_t<C> p{x, *y};
      if (p.is_on_curve() && !in_subgroup_by_order(p)) return p;
    }
  }
}

}  // namespace cuzk::ec
