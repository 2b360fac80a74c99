#pragma once
// Helpers shared by the gadget tests: allocating test inputs under unique
// names, and checking that corrupting one assignment breaks a named row.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "gadgets/gadgets.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/test_cs.hpp"

namespace cuzk::gadgets::test_util {

inline std::vector<boolean_t> alloc_bits(r1cs::test_cs& cs, const std::vector<bool>& values, const std::string& tag) {
  std::vector<boolean_t> out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    r1cs::namespace_guard ns(cs, [&] { return tag + " " + std::to_string(i); });
    out.push_back(alloc_boolean(cs, values[i]));
  }
  return out;
}

inline allocated_num_t alloc_num(r1cs::test_cs& cs, const ff::fr_t& v, const std::string& name) {
  r1cs::namespace_guard ns(cs, name);
  return allocated_num_t::alloc(cs, v);
}

// Replaces `var`'s value (by default adds 1; flip_bit: 1 - value, which keeps
// a bit boolean); the system must become unsatisfied, naming a constraint
// whose path contains `expect_in_name` (empty: any name). Restores the value.
inline void expect_corruption_caught(r1cs::test_cs& cs, r1cs::variable_t var, const std::string& expect_in_name = "",
                                     bool flip_bit = false) {
  ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  ff::fr_t old = cs.value(var);
  cs.set_value(var, flip_bit ? ff::fr_t::one() - old : old + ff::fr_t::one());
  std::optional<std::string> bad = cs.which_is_unsatisfied();
  ASSERT_TRUE(bad.has_value()) << "corrupting " << cs.variable_name(var) << " went unnoticed";
  EXPECT_NE(bad->find(expect_in_name), std::string::npos) << "failing row: " << *bad;
  cs.set_value(var, old);
  EXPECT_TRUE(cs.is_satisfied());
}

}  // namespace cuzk::gadgets::test_util
