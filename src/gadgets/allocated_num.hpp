#pragma once
// A field element held in one variable, after bellpepper-core's AllocatedNum
// (gadgets/num.rs): allocation, inputize, and the two bit decompositions.
#include <optional>
#include <string>
#include <vector>

#include "gadgets/boolean.hpp"

namespace cuzk::gadgets {

struct allocated_num_t {
  variable_t var;
  std::optional<fr_t> value;

  template <r1cs::constraint_system CS>
  static allocated_num_t alloc(CS& cs, std::optional<fr_t> value, const char* name = "num") {
    variable_t v = cs.alloc(name, [&] { return value; });
    return {v, value};
  }

  // alloc_input u, row u * 1 = x.
  template <r1cs::constraint_system CS>
  void inputize(CS& cs) const {
    variable_t u = cs.alloc_input("input variable", [&] { return value; });
    cs.enforce("enforce input is correct", [&](linear_combination_t lc) { return lc + u; },
               [&](linear_combination_t lc) { return lc + cs.one(); },
               [&](linear_combination_t lc) { return lc + var; });
  }
};

// Canonical little-endian bits of x (255 of them, bit i has weight 2^i).
inline std::vector<bool> fr_to_bits_le(const fr_t& x, std::size_t n = fr_t::bits) {
  auto limbs = x.to_canonical();
  std::vector<bool> bits(n);
  for (std::size_t i = 0; i < n; ++i) bits[i] = (limbs[i / 64] >> (i % 64)) & 1;
  return bits;
}

namespace detail {
// Row 0 * 0 = sum 2^i bit_i - x; bits are LE.
template <r1cs::constraint_system CS>
void enforce_unpacking(CS& cs, const std::vector<boolean_t>& bits_le, variable_t x) {
  cs.enforce("unpacking constraint", [](linear_combination_t lc) { return lc; },
             [](linear_combination_t lc) { return lc; },
             [&](linear_combination_t lc) {
               lc.reserve(bits_le.size() + 1);
               fr_t coeff = fr_t::one();
               for (const boolean_t& b : bits_le) {
                 b.add_to(lc, cs.one(), coeff);
                 coeff += coeff;
               }
               lc -= x;
               return lc;
             });
}
}  // namespace detail

// AllocatedNum::to_bits_le: 255 allocated bits (each with its booleanity
// row, LSB first) and one unpacking row, 256 rows / 255 aux. Non-strict: a
// cheating prover could use x + r when that fits in 255 bits; Filecoin's
// circuit accepts this (FILECOIN_POREP.md §12.12), honest witnesses use the
// canonical bits.
template <r1cs::constraint_system CS>
std::vector<boolean_t> num_to_bits_le(CS& cs, const allocated_num_t& x) {
  std::vector<bool> vals;
  if (x.value) vals = fr_to_bits_le(*x.value);
  std::vector<boolean_t> bits;
  bits.reserve(fr_t::bits);
  for (std::size_t i = 0; i < fr_t::bits; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "bit " + std::to_string(i); });
    bits.push_back(alloc_boolean(cs, x.value ? std::optional<bool>(vals[i]) : std::nullopt));
  }
  detail::enforce_unpacking(cs, bits, x.var);
  return bits;
}

// AllocatedNum::to_bits_le_strict: the bits are also constrained to encode a
// value <= r - 1. Walking r - 1 from its top bit, each run of ones is AND-ed
// together (with the previous run's AND) and a bit where r - 1 has a zero is
// allocated with alloc_conditionally against that running AND, so a prefix
// equal to r - 1's forces the next bit to 0. bellpepper's structure, order
// of allocations included.
template <r1cs::constraint_system CS>
std::vector<boolean_t> num_to_bits_le_strict(CS& cs, const allocated_num_t& x) {
  const std::vector<bool> r_minus_1 = fr_to_bits_le(-fr_t::one(), 256);
  std::vector<bool> vals;
  if (x.value) vals = fr_to_bits_le(*x.value, 256);
  std::vector<allocated_bit_t> result;  // big-endian while building
  std::vector<allocated_bit_t> current_run;
  std::optional<allocated_bit_t> last_run;
  bool found_one = false;
  std::size_t i = 0;
  for (std::size_t k = 256; k-- > 0;) {
    bool b = r_minus_1[k];
    std::optional<bool> a_bit = x.value ? std::optional<bool>(vals[k]) : std::nullopt;
    found_one |= b;
    if (!found_one) continue;
    if (b) {
      r1cs::namespace_guard ns(cs, [i] { return "bit " + std::to_string(i); });
      result.push_back(allocated_bit_t::alloc(cs, a_bit));
      current_run.push_back(result.back());
    } else {
      if (!current_run.empty()) {
        if (last_run) current_run.push_back(*last_run);
        r1cs::namespace_guard ns(cs, [i] { return "run ending at " + std::to_string(i); });
        allocated_bit_t cur = current_run[0];
        for (std::size_t j = 1; j < current_run.size(); ++j) {
          r1cs::namespace_guard ns2(cs, [j] { return "and " + std::to_string(j); });
          cur = and_bits(cs, cur, current_run[j]);
        }
        last_run = cur;
        current_run.clear();
      }
      r1cs::namespace_guard ns(cs, [i] { return "bit " + std::to_string(i); });
      result.push_back(allocated_bit_t::alloc_conditionally(cs, a_bit, *last_run));
    }
    ++i;
  }
  std::vector<boolean_t> bits_le;
  for (auto it = result.rbegin(); it != result.rend(); ++it) bits_le.push_back(boolean_t::is(*it));
  detail::enforce_unpacking(cs, bits_le, x.var);
  return bits_le;
}

// Row a * 1 = b (storage-proofs-core gadgets/constraint.rs `equal`).
template <r1cs::constraint_system CS>
void enforce_equal_nums(CS& cs, const allocated_num_t& a, const allocated_num_t& b) {
  cs.enforce("equal", [&](linear_combination_t lc) { return lc + a.var; },
             [&](linear_combination_t lc) { return lc + cs.one(); },
             [&](linear_combination_t lc) { return lc + b.var; });
}

// y = a + b: alloc y, row (a + b) * 1 = y (storage-proofs-core constraint::add,
// also the PoRep `encode`).
template <r1cs::constraint_system CS>
allocated_num_t add_nums(CS& cs, const allocated_num_t& a, const allocated_num_t& b) {
  std::optional<fr_t> v;
  if (a.value && b.value) v = *a.value + *b.value;
  allocated_num_t y = allocated_num_t::alloc(cs, v, "sum");
  cs.enforce("sum constraint", [&](linear_combination_t lc) { return lc + a.var + b.var; },
             [&](linear_combination_t lc) { return lc + cs.one(); },
             [&](linear_combination_t lc) { return lc + y.var; });
  return y;
}

// c = cond ? a : b: alloc c, row (b - a) * <cond> = b - c
// (storage-proofs-core gadgets/insertion.rs `pick`).
template <r1cs::constraint_system CS>
allocated_num_t pick_num(CS& cs, const boolean_t& cond, const allocated_num_t& a, const allocated_num_t& b) {
  std::optional<fr_t> v;
  if (cond.value() && a.value && b.value) v = *cond.value() ? *a.value : *b.value;
  allocated_num_t c = allocated_num_t::alloc(cs, v, "pick result");
  cs.enforce("pick", [&](linear_combination_t lc) { return lc + b.var - a.var; },
             [&](linear_combination_t lc) { return cond.add_to(lc, cs.one(), fr_t::one()), lc; },
             [&](linear_combination_t lc) { return lc + b.var - c.var; });
  return c;
}

}  // namespace cuzk::gadgets
