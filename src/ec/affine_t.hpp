#pragma once
// Affine point on y^2 = x^3 + b. Infinity is stored as (0, 0), which is not on
// the curve since b != 0; this keeps the struct exactly two field elements, the
// same bytes as the device type and as parameter files hold (after decoding).
namespace cuzk::ec {

template <class C>
struct affine_t {
  using field_t = typename C::field_t;
  field_t x, y;

  static constexpr affine_t infinity() { return {}; }
  constexpr bool is_inf() const { return x.is_zero() && y.is_zero(); }
  constexpr bool operator==(const affine_t&) const = default;
  constexpr affine_t operator-() const { return is_inf() ? *this : affine_t{x, -y}; }

  // True for infinity and for points satisfying the curve equation.
  constexpr bool is_on_curve() const {
    if (is_inf()) return true;
    return y.sqr() == x.sqr() * x + C::b();
  }
};

}  // namespace cuzk::ec
