#pragma once
// A wire of the constraint system: an index into either the input (public)
// assignment or the aux (private) assignment. Input 0 is the constant ONE.
#include <compare>
#include <cstddef>
#include <cstdint>

namespace cuzk::r1cs {

enum class var_kind : uint8_t { input = 0, aux = 1 };

// Packed into one word (index << 1 | kind) so a linear-combination term is
// 40 bytes rather than 48; 2^63 variables is more than any circuit will have.
class variable_t {
 public:
  constexpr variable_t() = default;
  constexpr variable_t(var_kind kind, size_t index) : raw_(uint64_t(index) << 1 | uint64_t(kind)) {}

  static constexpr variable_t input(size_t index) { return {var_kind::input, index}; }
  static constexpr variable_t aux(size_t index) { return {var_kind::aux, index}; }
  static constexpr variable_t one() { return input(0); }

  constexpr size_t index() const { return size_t(raw_ >> 1); }
  constexpr var_kind kind() const { return var_kind(raw_ & 1); }
  constexpr bool is_input() const { return kind() == var_kind::input; }
  constexpr bool is_aux() const { return kind() == var_kind::aux; }
  constexpr bool is_one() const { return raw_ == 0; }

  constexpr auto operator<=>(const variable_t&) const = default;

 private:
  uint64_t raw_ = 0;
};

static_assert(sizeof(variable_t) == 8);

}  // namespace cuzk::r1cs
