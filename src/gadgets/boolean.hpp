#pragma once
// A bit that is a constant, an allocated bit, or the negation of one (no
// row for NOT), after bellpepper-core's Boolean. The constant folding below
// follows bellpepper case for case (FILECOIN_POREP.md §7, "Boolean constant
// folding"): which case fires decides whether a row is emitted, so SHA-256
// constraint counts depend on it.
#include <optional>

#include "gadgets/allocated_bit.hpp"

namespace cuzk::gadgets {

class boolean_t {
 public:
  enum class kind_t : std::uint8_t { constant, is, is_not };

  boolean_t() = default;  // constant false
  static boolean_t constant(bool b) {
    boolean_t r;
    r.const_ = b;
    return r;
  }
  static boolean_t is(const allocated_bit_t& bit) {
    boolean_t r;
    r.kind_ = kind_t::is, r.bit_ = bit;
    return r;
  }

  kind_t kind() const { return kind_; }
  bool is_constant() const { return kind_ == kind_t::constant; }
  bool constant_value() const { return const_; }
  // The underlying bit of an Is / Not boolean.
  const allocated_bit_t& bit() const { return bit_; }

  std::optional<bool> value() const {
    switch (kind_) {
      case kind_t::constant: return const_;
      case kind_t::is: return bit_.value;
      default: return bit_.value ? std::optional<bool>(!*bit_.value) : std::nullopt;
    }
  }

  boolean_t negate() const {
    boolean_t r = *this;
    if (kind_ == kind_t::constant) r.const_ = !const_;
    else r.kind_ = kind_ == kind_t::is ? kind_t::is_not : kind_t::is;
    return r;
  }

  // lc += coeff * <this>: Is x -> coeff x; Not x -> coeff ONE - coeff x;
  // true -> coeff ONE; false -> nothing (bellpepper Boolean::lc).
  void add_to(linear_combination_t& lc, variable_t one, const fr_t& coeff) const {
    switch (kind_) {
      case kind_t::constant:
        if (const_) lc += coeff * one;
        break;
      case kind_t::is: lc += coeff * bit_.var; break;
      case kind_t::is_not:
        lc += coeff * one;
        lc -= coeff * bit_.var;
        break;
    }
  }
  linear_combination_t lc(variable_t one, const fr_t& coeff = fr_t::one()) const {
    linear_combination_t r;
    add_to(r, one, coeff);
    return r;
  }

 private:
  kind_t kind_ = kind_t::constant;
  bool const_ = false;
  allocated_bit_t bit_{};
};

template <r1cs::constraint_system CS>
boolean_t alloc_boolean(CS& cs, std::optional<bool> value) {
  return boolean_t::is(allocated_bit_t::alloc(cs, value));
}

// a xor b; constants fold, Is/Not allocates Is xor then negates.
template <r1cs::constraint_system CS>
boolean_t boolean_xor(CS& cs, const boolean_t& a, const boolean_t& b) {
  using k = boolean_t::kind_t;
  if (a.is_constant()) return a.constant_value() ? b.negate() : b;
  if (b.is_constant()) return b.constant_value() ? a.negate() : a;
  if (a.kind() == b.kind()) return boolean_t::is(xor_bits(cs, a.bit(), b.bit()));
  const boolean_t& is = a.kind() == k::is ? a : b;
  const boolean_t& not_ = a.kind() == k::is ? b : a;
  return boolean_t::is(xor_bits(cs, is.bit(), not_.bit())).negate();
}

// a and b; constants fold; Is&Not -> and_not, Not&Not -> nor, Is&Is -> and.
template <r1cs::constraint_system CS>
boolean_t boolean_and(CS& cs, const boolean_t& a, const boolean_t& b) {
  using k = boolean_t::kind_t;
  if (a.is_constant() && !a.constant_value()) return a;
  if (b.is_constant() && !b.constant_value()) return b;
  if (a.is_constant()) return b;
  if (b.is_constant()) return a;
  if (a.kind() != b.kind()) {
    const boolean_t& is = a.kind() == k::is ? a : b;
    const boolean_t& not_ = a.kind() == k::is ? b : a;
    return boolean_t::is(and_not_bits(cs, is.bit(), not_.bit()));
  }
  if (a.kind() == k::is_not) return boolean_t::is(nor_bits(cs, a.bit(), b.bit()));
  return boolean_t::is(and_bits(cs, a.bit(), b.bit()));
}

// Row 0 * 0 = <a> - <b> (or the folded forms against a constant); two
// different constants cannot be equal and throw synthesis_error.
template <r1cs::constraint_system CS>
void boolean_enforce_equal(CS& cs, const boolean_t& a, const boolean_t& b) {
  auto zero = [](linear_combination_t lc) { return lc; };
  if (a.is_constant() && b.is_constant()) {
    if (a.constant_value() != b.constant_value()) throw r1cs::synthesis_error("boolean_enforce_equal: constants differ");
    return;
  }
  if (a.is_constant() || b.is_constant()) {
    const boolean_t& c = a.is_constant() ? a : b;
    const boolean_t& x = a.is_constant() ? b : a;
    if (c.constant_value()) {
      cs.enforce("enforce equal to one", zero, zero, [&](linear_combination_t lc) {
        lc += cs.one();
        x.add_to(lc, cs.one(), -fr_t::one());
        return lc;
      });
    } else {
      cs.enforce("enforce equal to zero", zero, zero, [&](linear_combination_t lc) {
        x.add_to(lc, cs.one(), fr_t::one());
        return lc;
      });
    }
    return;
  }
  cs.enforce("enforce equal", zero, zero, [&](linear_combination_t lc) {
    a.add_to(lc, cs.one(), fr_t::one());
    b.add_to(lc, cs.one(), -fr_t::one());
    return lc;
  });
}

namespace detail {
template <r1cs::constraint_system CS>
allocated_bit_t alloc_result_bit(CS& cs, const char* name, std::optional<bool> v) {
  return {alloc_bit_value(cs, name, v), v};
}
inline std::optional<bool> and3(std::optional<bool> a, std::optional<bool> b, std::optional<bool> c, bool (*f)(bool, bool, bool)) {
  if (a && b && c) return f(*a, *b, *c);
  return std::nullopt;
}
}  // namespace detail

// SHA-256 Ch(a, b, c) = (a and b) xor (not a and c), bellpepper sha256_ch.
template <r1cs::constraint_system CS>
boolean_t sha256_ch(CS& cs, const boolean_t& a, const boolean_t& b, const boolean_t& c) {
  auto f = [](bool x, bool y, bool z) { return (x && y) != (!x && z); };
  std::optional<bool> v = detail::and3(a.value(), b.value(), c.value(), +f);
  auto is_c = [](const boolean_t& x, bool val) { return x.is_constant() && x.constant_value() == val; };
  if (a.is_constant() && b.is_constant() && c.is_constant()) return boolean_t::constant(*v);
  if (is_c(a, false)) return c;
  if (is_c(b, false)) return boolean_and(cs, a.negate(), c);
  if (is_c(c, false)) return boolean_and(cs, a, b);
  if (is_c(c, true)) return boolean_and(cs, a, b.negate()).negate();
  if (is_c(b, true)) return boolean_and(cs, a.negate(), c.negate()).negate();
  allocated_bit_t r = detail::alloc_result_bit(cs, "ch", v);
  // (b - c) * a = r - c
  cs.enforce("ch computation",
             [&](linear_combination_t lc) {
               b.add_to(lc, cs.one(), fr_t::one());
               c.add_to(lc, cs.one(), -fr_t::one());
               return lc;
             },
             [&](linear_combination_t lc) { return a.add_to(lc, cs.one(), fr_t::one()), lc; },
             [&](linear_combination_t lc) {
               lc += r.var;
               c.add_to(lc, cs.one(), -fr_t::one());
               return lc;
             });
  return boolean_t::is(r);
}

// SHA-256 Maj(a, b, c), bellpepper sha256_maj: the general case allocates
// its result before b and c (2 allocations, 2 rows).
template <r1cs::constraint_system CS>
boolean_t sha256_maj(CS& cs, const boolean_t& a, const boolean_t& b, const boolean_t& c) {
  auto f = [](bool x, bool y, bool z) { return ((x && y) != (x && z)) != (y && z); };
  std::optional<bool> v = detail::and3(a.value(), b.value(), c.value(), +f);
  auto is_c = [](const boolean_t& x, bool val) { return x.is_constant() && x.constant_value() == val; };
  if (a.is_constant() && b.is_constant() && c.is_constant()) return boolean_t::constant(*v);
  if (is_c(a, false)) return boolean_and(cs, b, c);
  if (is_c(b, false)) return boolean_and(cs, a, c);
  if (is_c(c, false)) return boolean_and(cs, a, b);
  if (is_c(c, true)) return boolean_and(cs, a.negate(), b.negate()).negate();
  if (is_c(b, true)) return boolean_and(cs, a.negate(), c.negate()).negate();
  if (is_c(a, true)) return boolean_and(cs, b.negate(), c.negate()).negate();
  allocated_bit_t r = detail::alloc_result_bit(cs, "maj", v);
  boolean_t bc;
  {
    r1cs::namespace_guard ns(cs, "b and c");
    bc = boolean_and(cs, b, c);
  }
  // (2bc - b - c) * a = bc - maj
  cs.enforce("maj computation",
             [&](linear_combination_t lc) {
               bc.add_to(lc, cs.one(), fr_t::from_u64(2));
               b.add_to(lc, cs.one(), -fr_t::one());
               c.add_to(lc, cs.one(), -fr_t::one());
               return lc;
             },
             [&](linear_combination_t lc) { return a.add_to(lc, cs.one(), fr_t::one()), lc; },
             [&](linear_combination_t lc) {
               bc.add_to(lc, cs.one(), fr_t::one());
               lc -= r.var;
               return lc;
             });
  return boolean_t::is(r);
}

}  // namespace cuzk::gadgets
