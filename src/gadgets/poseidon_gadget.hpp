#pragma once
// Poseidon in R1CS, after neptune's legacy circuit (src/circuit.rs,
// `poseidon_hash`), the one Filecoin's parameters were generated with
// (FILECOIN_POREP.md §7 "Poseidon circuit"). It runs the optimized form
// (compressed constants, pre-sparse and sparse matrices) and keeps state
// elements as linear combinations between S-boxes, so mixes cost no rows:
//   round 0: the tag S-box folds to a constant; input k costs 3 rows
//            (x+c)^2 = q, q*q = q2, (x+c)*q2 = y - c';
//   other S-boxes: 4 rows  l*1 = v, v*v = q, q*q = q2, v*q2 = y - key;
//   output: 1 row  l(s_1)*1 = o.
// Rows (= aux) C(a) = 3a + 4t(R_F - 1) + 4R_P + 1: 311, 377, 505, 598 for
// arities 2, 4, 8, 11 (neptune circuit.rs test_poseidon_hash).
// In a values-only system (r1cs::builds_rows_v false: the compiled paths)
// the state elements carry values only: no terms are built, merged or
// sorted, which is most of the gadget's cost (the PoSt circuit, nearly all
// Poseidon, synthesizes ~70x faster that way).
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "gadgets/allocated_num.hpp"
#include "gadgets/poseidon_constants.hpp"

namespace cuzk::gadgets {

namespace detail {

// A state element: sum coeff_k * var_k + constant * ONE, terms sorted by
// variable and merged (neptune's Elt::Num / Elt::Allocated, with terms
// combined as bellpepper's LinearCombination does).
struct poseidon_elt_t {
  std::vector<r1cs::term_t> terms;
  fr_t constant = fr_t::zero();
  std::optional<fr_t> value;

  // rows false: the value only (a values-only system never reads the terms).
  static poseidon_elt_t of_var(variable_t v, std::optional<fr_t> value, bool rows) {
    if (!rows) return {{}, fr_t::zero(), value};
    return {{r1cs::term_t{v, fr_t::one()}}, fr_t::zero(), value};
  }
  static poseidon_elt_t of_constant(const fr_t& c) { return {{}, c, c}; }

  void add_to(linear_combination_t& lc, variable_t one) const {
    lc.reserve(lc.size() + terms.size() + 1);
    for (const r1cs::term_t& t : terms) lc += t;
    if (!constant.is_zero()) lc += constant * one;
  }
};

// sum_i scalars[i] * elts[i], merging equal variables (rows false: values only).
inline poseidon_elt_t scalar_product(std::span<const poseidon_elt_t> elts, std::span<const fr_t> scalars, bool rows) {
  poseidon_elt_t out;
  if (!rows) {
    fr_t value = fr_t::zero();
    for (std::size_t i = 0; i < elts.size(); ++i) {
      if (!elts[i].value) return out;
      value += *elts[i].value * scalars[i];
    }
    out.value = value;
    return out;
  }
  std::size_t n = 0;
  for (const auto& e : elts) n += e.terms.size();
  std::vector<r1cs::term_t> all;
  all.reserve(n);
  bool known = true;
  fr_t value = fr_t::zero();
  for (std::size_t i = 0; i < elts.size(); ++i) {
    for (const r1cs::term_t& t : elts[i].terms) all.push_back({t.var, t.coeff * scalars[i]});
    out.constant += elts[i].constant * scalars[i];
    if (elts[i].value) value += *elts[i].value * scalars[i];
    else known = false;
  }
  std::stable_sort(all.begin(), all.end(), [](const r1cs::term_t& a, const r1cs::term_t& b) { return a.var < b.var; });
  for (const r1cs::term_t& t : all) {
    if (!out.terms.empty() && out.terms.back().var == t.var) out.terms.back().coeff += t.coeff;
    else out.terms.push_back(t);
  }
  if (known) out.value = value;
  return out;
}

// a + s * b where b is a single fresh variable (the partial-round update of
// s_j, j >= 1): b's variable is newer than every term of a, so order holds.
inline poseidon_elt_t add_scaled_var(const poseidon_elt_t& a, const poseidon_elt_t& b, const fr_t& s, bool rows) {
  poseidon_elt_t out = a;
  if (rows) out.terms.push_back({b.terms[0].var, s});
  if (a.value && b.value) out.value = *a.value + s * *b.value;
  else out.value.reset();
  return out;
}

inline std::optional<fr_t> opt_add(std::optional<fr_t> a, const fr_t& b) {
  return a ? std::optional<fr_t>(*a + b) : std::nullopt;
}

// neptune ensure_allocated on an Elt::Num: alloc v and row l * 1 = v. Every
// S-box after round 0 reads a mixed element, which is always a Num.
template <r1cs::constraint_system CS>
allocated_num_t ensure_allocated(CS& cs, const poseidon_elt_t& e, const char* name) {
  r1cs::namespace_guard ns(cs, name);
  allocated_num_t v = allocated_num_t::alloc(cs, e.value, "allocate for Elt::Num");
  cs.enforce("enforce num allocation preserves lc",
             [&](linear_combination_t lc) { return e.add_to(lc, cs.one()), lc; },
             [&](linear_combination_t lc) { return lc + cs.one(); },
             [&](linear_combination_t lc) { return lc + v.var; });
  return v;
}

// S-box of a later round: l^5 + key (key absent in the terminal round).
template <r1cs::constraint_system CS>
poseidon_elt_t quintic_s_box(CS& cs, const poseidon_elt_t& e, const fr_t* post_key) {
  allocated_num_t l = ensure_allocated(cs, e, "S-box input");
  std::optional<fr_t> l2v, l4v, l5v;
  if (l.value) {
    l2v = l.value->sqr();
    l4v = l2v->sqr();
    l5v = *l4v * *l.value;
    if (post_key) *l5v += *post_key;
  }
  variable_t l2, l4, l5;
  {
    r1cs::namespace_guard ns(cs, "l^2");
    l2 = cs.alloc("squared num", [&] { return l2v; });
    cs.enforce("squaring constraint", [&](linear_combination_t lc) { return lc + l.var; },
               [&](linear_combination_t lc) { return lc + l.var; }, [&](linear_combination_t lc) { return lc + l2; });
  }
  {
    r1cs::namespace_guard ns(cs, "l^4");
    l4 = cs.alloc("squared num", [&] { return l4v; });
    cs.enforce("squaring constraint", [&](linear_combination_t lc) { return lc + l2; },
               [&](linear_combination_t lc) { return lc + l2; }, [&](linear_combination_t lc) { return lc + l4; });
  }
  {
    r1cs::namespace_guard ns(cs, "(l4 * l) + rk)");
    l5 = cs.alloc("mul_sum", [&] { return l5v; });
    cs.enforce("mul sum constraint", [&](linear_combination_t lc) { return lc + l.var; },
               [&](linear_combination_t lc) { return lc + l4; },
               [&](linear_combination_t lc) {
                 lc += l5;
                 if (post_key) lc += (-*post_key) * cs.one();
                 return lc;
               });
  }
  return poseidon_elt_t::of_var(l5, l5v, r1cs::builds_rows_v<CS>);
}

// First-round S-box of an allocated input: (x + pre)^5 + post, 3 rows.
template <r1cs::constraint_system CS>
poseidon_elt_t quintic_s_box_pre_add(CS& cs, const allocated_num_t& x, const fr_t& pre, const fr_t& post) {
  std::optional<fr_t> l2v, l4v, l5v;
  if (x.value) {
    fr_t s = *x.value + pre;
    l2v = s.sqr();
    l4v = l2v->sqr();
    l5v = *l4v * s + post;
  }
  auto x_plus_pre = [&](linear_combination_t lc) { return lc + x.var + pre * cs.one(); };
  variable_t l2, l4, l5;
  {
    r1cs::namespace_guard ns(cs, "(l+rk)^2");
    l2 = cs.alloc("squared sum", [&] { return l2v; });
    cs.enforce("squared sum constraint", x_plus_pre, x_plus_pre, [&](linear_combination_t lc) { return lc + l2; });
  }
  {
    r1cs::namespace_guard ns(cs, "l^4");
    l4 = cs.alloc("squared num", [&] { return l4v; });
    cs.enforce("squaring constraint", [&](linear_combination_t lc) { return lc + l2; },
               [&](linear_combination_t lc) { return lc + l2; }, [&](linear_combination_t lc) { return lc + l4; });
  }
  {
    r1cs::namespace_guard ns(cs, "l4 * (l + rk)");
    l5 = cs.alloc("mul_sum", [&] { return l5v; });
    cs.enforce("mul sum constraint pre-post-add", x_plus_pre, [&](linear_combination_t lc) { return lc + l4; },
               [&](linear_combination_t lc) { return lc + l5 + (-post) * cs.one(); });
  }
  return poseidon_elt_t::of_var(l5, l5v, r1cs::builds_rows_v<CS>);
}

inline void mix_dense(std::vector<poseidon_elt_t>& s, const std::vector<fr_t>& m, std::size_t t, bool rows) {
  std::vector<poseidon_elt_t> out;
  std::vector<fr_t> column(t);
  for (std::size_t j = 0; j < t; ++j) {
    for (std::size_t i = 0; i < t; ++i) column[i] = m[i * t + j];
    out.push_back(scalar_product(s, column, rows));
  }
  s = std::move(out);
}

inline void mix_sparse(std::vector<poseidon_elt_t>& s, const poseidon_sparse_matrix_t& sp, bool rows) {
  std::vector<poseidon_elt_t> out;
  out.push_back(scalar_product(s, sp.col0, rows));
  for (std::size_t j = 1; j < s.size(); ++j) out.push_back(add_scaled_var(s[j], s[0], sp.row0[j - 1], rows));
  s = std::move(out);
}

}  // namespace detail

// Rows (and aux variables) of poseidon_hash_gadget for one arity.
inline std::size_t poseidon_gadget_constraints(const poseidon_params_t& p) {
  return 3 * p.arity + 4 * p.width * (p.full_rounds - 1) + 4 * p.partial_rounds + 1;
}

// Poseidon of inputs.size() = params.arity allocated numbers, Filecoin's
// MerkleTree domain tag; returns the allocated digest (state[1]).
template <r1cs::constraint_system CS>
allocated_num_t poseidon_hash_gadget(CS& cs, const poseidon_params_t& p, std::span<const allocated_num_t> inputs) {
  if (inputs.size() != p.arity) {
    throw std::invalid_argument("poseidon_hash_gadget: " + std::to_string(inputs.size()) + " inputs for arity " +
                                std::to_string(p.arity));
  }
  const std::size_t t = p.width, half = p.full_rounds / 2;
  constexpr bool rows = r1cs::builds_rows_v<CS>;
  const fr_t* key = p.compressed_constants.data();
  std::vector<detail::poseidon_elt_t> s;
  s.reserve(t);
  {
    r1cs::namespace_guard ns(cs, "first round");
    fr_t tag = p.domain_tag + key[0];
    s.push_back(detail::poseidon_elt_t::of_constant(tag.sqr().sqr() * tag + key[t]));
    for (std::size_t k = 1; k < t; ++k) {
      r1cs::namespace_guard ns2(cs, [k] { return "quintic s-box " + std::to_string(k); });
      s.push_back(detail::quintic_s_box_pre_add(cs, inputs[k - 1], key[k], key[t + k]));
    }
    key += 2 * t;
    detail::mix_dense(s, p.mds, t, rows);
  }
  auto full_round = [&](bool keyed) {
    for (std::size_t i = 0; i < t; ++i) {
      r1cs::namespace_guard ns(cs, [i] { return "quintic s-box " + std::to_string(i); });
      s[i] = detail::quintic_s_box(cs, s[i], keyed ? key + i : nullptr);
    }
    if (keyed) key += t;
  };
  for (std::size_t r = 1; r < half; ++r) {
    r1cs::namespace_guard ns(cs, [r] { return "initial full round " + std::to_string(r); });
    full_round(true);
    detail::mix_dense(s, r + 1 == half ? p.pre_sparse : p.mds, t, rows);
  }
  for (std::size_t r = 0; r < p.partial_rounds; ++r) {
    r1cs::namespace_guard ns(cs, [r] { return "partial round " + std::to_string(r); });
    {
      r1cs::namespace_guard ns2(cs, "solitary quintic s-box");
      s[0] = detail::quintic_s_box(cs, s[0], key++);
    }
    detail::mix_sparse(s, p.sparse[r], rows);
  }
  for (std::size_t r = 0; r + 1 < half; ++r) {
    r1cs::namespace_guard ns(cs, [r] { return "final full round " + std::to_string(r); });
    full_round(true);
    detail::mix_dense(s, p.mds, t, rows);
  }
  {
    r1cs::namespace_guard ns(cs, "terminal full round");
    full_round(false);
    detail::mix_dense(s, p.mds, t, rows);
  }
  // The output is a mixed LC, so this allocates (the "+1" row).
  return detail::ensure_allocated(cs, s[1], "hash result");
}

template <r1cs::constraint_system CS>
allocated_num_t poseidon_hash_gadget(CS& cs, std::span<const allocated_num_t> inputs) {
  return poseidon_hash_gadget(cs, poseidon_params(inputs.size()), inputs);
}

}  // namespace cuzk::gadgets
