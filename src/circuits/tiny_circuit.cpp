#include "circuits/tiny_circuit.hpp"

#include <stdexcept>

namespace cuzk::circuits {

tiny_circuit::tiny_circuit(std::optional<fr_t> x, bool bit, size_t square_rounds)
    : x_(x), bit_(bit), rounds_(square_rounds) {
  if (rounds_ == 0) throw std::invalid_argument("tiny_circuit: square_rounds must be at least 1");
}

tiny_circuit tiny_circuit::with_claimed_y(const fr_t& y) const {
  tiny_circuit c = *this;
  c.claimed_y_ = y;
  return c;
}

tiny_circuit::values_t tiny_circuit::compute() const {
  if (!x_) throw std::logic_error("tiny_circuit: no witness");
  values_t v;
  v.x = *x_;
  v.x2 = v.x.sqr();
  v.x3 = v.x2 * v.x;
  v.y = claimed_y_ ? *claimed_y_ : v.x3 + v.x + fr_t::from_u64(5);
  v.sel = bit_ ? v.x : v.y;
  v.u.resize(rounds_ + 1);
  v.u[0] = v.x;
  for (size_t i = 0; i < rounds_; ++i) v.u[i + 1] = v.u[i].sqr() + fr_t::from_u64(i);
  return v;
}

std::vector<fr_t> tiny_circuit::public_inputs() const {
  values_t v = compute();
  return {v.y, v.sel, v.u[rounds_]};
}

std::string tiny_circuit::description() const {
  return "tiny: x^3 + x + 5 = y, a boolean selection and " + std::to_string(rounds_) + " squarings; " +
         std::to_string(num_constraints()) + " constraints, 3 public inputs";
}

}  // namespace cuzk::circuits
