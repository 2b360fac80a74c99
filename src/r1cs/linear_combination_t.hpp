#pragma once
// Sum of coeff * variable terms, built by value like bellman's
// LinearCombination: `[&](linear_combination_t lc) { return lc + x - y; }`.
// Terms are kept as written (no merging of repeated variables): the modes that
// need exact columns merge per constraint themselves, the witness mode only
// evaluates. Most constraints have 1-3 terms per side, so up to four live
// inline and an LC costs no allocation; longer sums (bit packing) spill to
// the heap once.
#include <algorithm>
#include <span>
#include <vector>

#include "r1cs/term_t.hpp"

namespace cuzk::r1cs {

class linear_combination_t {
 public:
  static constexpr size_t inline_capacity = 4;

  linear_combination_t() = default;
  explicit linear_combination_t(variable_t v) { push_back({v, fr_t::one()}); }
  explicit linear_combination_t(const term_t& t) { push_back(t); }

  // A moved-from LC is empty.
  linear_combination_t(const linear_combination_t& o) { copy_from(o); }
  linear_combination_t(linear_combination_t&& o) noexcept { move_from(o); }
  linear_combination_t& operator=(const linear_combination_t& o) {
    if (this != &o) copy_from(o);
    return *this;
  }
  linear_combination_t& operator=(linear_combination_t&& o) noexcept {
    if (this != &o) move_from(o);
    return *this;
  }

  size_t size() const { return spilled_ ? heap_.size() : n_inline_; }
  bool empty() const { return size() == 0; }
  std::span<const term_t> terms() const {
    return spilled_ ? std::span<const term_t>(heap_) : std::span<const term_t>(inline_, n_inline_);
  }
  auto begin() const { return terms().begin(); }
  auto end() const { return terms().end(); }

  void reserve(size_t n) {
    if (n <= inline_capacity && !spilled_) return;
    spill();
    heap_.reserve(n);
  }

  void push_back(const term_t& t) {
    if (!spilled_ && n_inline_ < inline_capacity) {
      inline_[n_inline_++] = t;
      return;
    }
    spill();
    heap_.push_back(t);
  }

  linear_combination_t& operator+=(variable_t v) { return push_back({v, fr_t::one()}), *this; }
  linear_combination_t& operator-=(variable_t v) { return push_back({v, -fr_t::one()}), *this; }
  linear_combination_t& operator+=(const term_t& t) { return push_back(t), *this; }
  linear_combination_t& operator-=(const term_t& t) { return push_back({t.var, -t.coeff}), *this; }
  linear_combination_t& operator+=(const linear_combination_t& o) {
    reserve(size() + o.size());
    for (const term_t& t : o) push_back(t);
    return *this;
  }
  linear_combination_t& operator-=(const linear_combination_t& o) {
    reserve(size() + o.size());
    for (const term_t& t : o) push_back({t.var, -t.coeff});
    return *this;
  }
  linear_combination_t& operator*=(const fr_t& s) {
    for (term_t& t : mutable_terms()) t.coeff *= s;
    return *this;
  }

  friend linear_combination_t operator+(linear_combination_t lc, variable_t v) { return std::move(lc += v); }
  friend linear_combination_t operator-(linear_combination_t lc, variable_t v) { return std::move(lc -= v); }
  friend linear_combination_t operator+(linear_combination_t lc, const term_t& t) { return std::move(lc += t); }
  friend linear_combination_t operator-(linear_combination_t lc, const term_t& t) { return std::move(lc -= t); }
  friend linear_combination_t operator+(linear_combination_t lc, const linear_combination_t& o) {
    return std::move(lc += o);
  }
  friend linear_combination_t operator-(linear_combination_t lc, const linear_combination_t& o) {
    return std::move(lc -= o);
  }
  friend linear_combination_t operator*(const fr_t& s, linear_combination_t lc) { return std::move(lc *= s); }

  // <lc, (inputs, aux)>. Multiplications by 1 and by the ONE wire are skipped:
  // they are the common case (unit coefficients, constant offsets).
  fr_t evaluate(std::span<const fr_t> inputs, std::span<const fr_t> aux) const {
    fr_t acc = fr_t::zero();
    for (const term_t& t : terms()) acc += term_value(t, t.var.is_input() ? inputs[t.var.index()] : aux[t.var.index()]);
    return acc;
  }

  static fr_t term_value(const term_t& t, const fr_t& value) {
    if (t.var.is_one()) return t.coeff;
    if (t.coeff.is_one()) return value;
    return t.coeff * value;
  }

 private:
  std::span<term_t> mutable_terms() {
    return spilled_ ? std::span<term_t>(heap_) : std::span<term_t>(inline_, n_inline_);
  }
  void spill() {
    if (spilled_) return;
    heap_.reserve(2 * inline_capacity);
    heap_.assign(inline_, inline_ + n_inline_);
    spilled_ = true;
  }
  void copy_from(const linear_combination_t& o) {
    spilled_ = o.spilled_;
    n_inline_ = o.n_inline_;
    if (spilled_) heap_ = o.heap_;
    else std::copy_n(o.inline_, n_inline_, inline_);
  }
  void move_from(linear_combination_t& o) {
    spilled_ = o.spilled_;
    n_inline_ = o.n_inline_;
    if (spilled_) heap_ = std::move(o.heap_);
    else std::copy_n(o.inline_, n_inline_, inline_);
    o.spilled_ = false;
    o.n_inline_ = 0;
    o.heap_.clear();
  }

  uint32_t n_inline_ = 0;
  bool spilled_ = false;
  term_t inline_[inline_capacity];
  std::vector<term_t> heap_;
};

}  // namespace cuzk::r1cs
