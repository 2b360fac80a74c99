#pragma once
// A variable constrained to {0, 1}, after bellpepper-core's AllocatedBit
// (gadgets/boolean.rs). Every form below is bellpepper's row for row
// (FILECOIN_POREP.md §7 table): the Groth16 parameters fix the rows, so even
// the operand order inside A and B matters.
#include <optional>

#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

using r1cs::fr_t;
using r1cs::linear_combination_t;
using r1cs::variable_t;

inline fr_t bit_to_fr(bool b) { return b ? fr_t::one() : fr_t::zero(); }

// Value of `op(a, b)` when both are known.
template <class Op>
std::optional<bool> combine_bits(std::optional<bool> a, std::optional<bool> b, Op op) {
  if (a && b) return op(*a, *b);
  return std::nullopt;
}

struct allocated_bit_t {
  variable_t var;
  std::optional<bool> value;  // nullopt in modes without values

  // alloc x, row (1 - x) * x = 0.
  template <r1cs::constraint_system CS>
  static allocated_bit_t alloc(CS& cs, std::optional<bool> value) {
    variable_t x = cs.alloc("boolean", [&]() -> std::optional<fr_t> {
      if (!value) return std::nullopt;
      return bit_to_fr(*value);
    });
    cs.enforce("boolean constraint", [&](linear_combination_t lc) { return lc + cs.one() - x; },
               [&](linear_combination_t lc) { return lc + x; }, [](linear_combination_t lc) { return lc; });
    return {x, value};
  }

  // alloc x, row (1 - must_be_false - x) * x = 0: x is a bit, and 0 whenever
  // must_be_false is 1 (bellpepper alloc_conditionally; used by the strict
  // field decomposition).
  template <r1cs::constraint_system CS>
  static allocated_bit_t alloc_conditionally(CS& cs, std::optional<bool> value, const allocated_bit_t& must_be_false) {
    variable_t x = cs.alloc("boolean", [&]() -> std::optional<fr_t> {
      if (!value) return std::nullopt;
      return bit_to_fr(*value);
    });
    cs.enforce("boolean constraint",
               [&](linear_combination_t lc) { return lc + cs.one() - must_be_false.var - x; },
               [&](linear_combination_t lc) { return lc + x; }, [](linear_combination_t lc) { return lc; });
    return {x, value};
  }
};

namespace detail {
template <r1cs::constraint_system CS>
variable_t alloc_bit_value(CS& cs, const char* name, std::optional<bool> v) {
  return cs.alloc(name, [&]() -> std::optional<fr_t> {
    if (!v) return std::nullopt;
    return bit_to_fr(*v);
  });
}
}  // namespace detail

// r = a xor b: alloc r, row (2a) * b = a + b - r.
template <r1cs::constraint_system CS>
allocated_bit_t xor_bits(CS& cs, const allocated_bit_t& a, const allocated_bit_t& b) {
  std::optional<bool> v = combine_bits(a.value, b.value, [](bool x, bool y) { return x != y; });
  variable_t r = detail::alloc_bit_value(cs, "xor result", v);
  cs.enforce("xor constraint", [&](linear_combination_t lc) { return lc + fr_t::from_u64(2) * a.var; },
             [&](linear_combination_t lc) { return lc + b.var; },
             [&](linear_combination_t lc) { return lc + a.var + b.var - r; });
  return {r, v};
}

// r = a and b: a * b = r.
template <r1cs::constraint_system CS>
allocated_bit_t and_bits(CS& cs, const allocated_bit_t& a, const allocated_bit_t& b) {
  std::optional<bool> v = combine_bits(a.value, b.value, [](bool x, bool y) { return x && y; });
  variable_t r = detail::alloc_bit_value(cs, "and result", v);
  cs.enforce("and constraint", [&](linear_combination_t lc) { return lc + a.var; },
             [&](linear_combination_t lc) { return lc + b.var; }, [&](linear_combination_t lc) { return lc + r; });
  return {r, v};
}

// r = a and not b: a * (1 - b) = r.
template <r1cs::constraint_system CS>
allocated_bit_t and_not_bits(CS& cs, const allocated_bit_t& a, const allocated_bit_t& b) {
  std::optional<bool> v = combine_bits(a.value, b.value, [](bool x, bool y) { return x && !y; });
  variable_t r = detail::alloc_bit_value(cs, "and not result", v);
  cs.enforce("and not constraint", [&](linear_combination_t lc) { return lc + a.var; },
             [&](linear_combination_t lc) { return lc + cs.one() - b.var; },
             [&](linear_combination_t lc) { return lc + r; });
  return {r, v};
}

// r = not a and not b: (1 - a) * (1 - b) = r.
template <r1cs::constraint_system CS>
allocated_bit_t nor_bits(CS& cs, const allocated_bit_t& a, const allocated_bit_t& b) {
  std::optional<bool> v = combine_bits(a.value, b.value, [](bool x, bool y) { return !x && !y; });
  variable_t r = detail::alloc_bit_value(cs, "nor result", v);
  cs.enforce("nor constraint", [&](linear_combination_t lc) { return lc + cs.one() - a.var; },
             [&](linear_combination_t lc) { return lc + cs.one() - b.var; },
             [&](linear_combination_t lc) { return lc + r; });
  return {r, v};
}

}  // namespace cuzk::gadgets
