#pragma once
// Test mode, after bellman's TestConstraintSystem: keeps every value, every
// linear combination and every name as a namespaced path "outer/inner/leaf",
// so a failing circuit test says which constraint broke. Paths must be unique
// (namespaces included) and names may not contain '/'; violations throw.
// Slow by design (a string and a map node per object): for circuits up to a
// few hundred thousand constraints.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/shape_counts_t.hpp"

namespace cuzk::r1cs {

class test_cs {
 public:
  static constexpr bool needs_values = true;

  test_cs();

  variable_t one() const { return variable_t::one(); }

  template <name_source N, value_source V>
  variable_t alloc(N&& name, V&& value) {
    std::string path = claim_path(resolve_name(std::forward<N>(name)));
    fr_t v = resolve_value(std::forward<V>(value), path);
    return add_variable(var_kind::aux, std::move(path), v);
  }

  template <name_source N, value_source V>
  variable_t alloc_input(N&& name, V&& value) {
    std::string path = claim_path(resolve_name(std::forward<N>(name)));
    fr_t v = resolve_value(std::forward<V>(value), path);
    return add_variable(var_kind::input, std::move(path), v);
  }

  template <name_source N, lc_builder A, lc_builder B, lc_builder C>
  void enforce(N&& name, A&& a, B&& b, C&& c) {
    std::string path = claim_path(resolve_name(std::forward<N>(name)));
    add_constraint(std::move(path), std::forward<A>(a)(linear_combination_t{}),
                   std::forward<B>(b)(linear_combination_t{}), std::forward<C>(c)(linear_combination_t{}));
  }

  template <name_source N>
  void push_namespace(N&& name) {
    enter(claim_path(resolve_name(std::forward<N>(name))));
  }
  void pop_namespace();

  // Path of the first constraint with <A,w> * <B,w> != <C,w>, if any.
  std::optional<std::string> which_is_unsatisfied() const;
  bool is_satisfied() const { return !which_is_unsatisfied(); }
  // Satisfied, and the public inputs (ONE excluded) equal `expected`.
  bool verify(std::span<const fr_t> expected) const;

  size_t num_constraints() const { return constraints_.size(); }
  size_t num_inputs() const { return inputs_.size(); }
  size_t num_aux() const { return aux_.size(); }
  shape_counts_t counts() const { return {num_constraints(), num_inputs(), num_aux()}; }

  const std::vector<fr_t>& input_values() const { return inputs_; }
  const std::vector<fr_t>& aux_values() const { return aux_; }
  const std::string& constraint_name(size_t i) const { return constraints_.at(i).path; }
  const std::string& variable_name(variable_t v) const;
  fr_t value(variable_t v) const;
  // Overwrites one assignment, to check that a constraint catches the change.
  void set_value(variable_t v, const fr_t& x);
  // The variable allocated under `path`, if any.
  std::optional<variable_t> find_variable(std::string_view path) const;

 private:
  struct constraint_rec {
    std::string path;
    linear_combination_t a, b, c;
  };
  enum class object_kind { name_space, variable, constraint };
  struct named_object {
    object_kind kind;
    variable_t var;
  };

  std::string claim_path(std::string_view name) const;
  void register_path(const std::string& path, named_object obj);
  variable_t add_variable(var_kind kind, std::string path, const fr_t& v);
  void add_constraint(std::string path, linear_combination_t a, linear_combination_t b, linear_combination_t c);
  void enter(std::string path);
  void check_lc(const linear_combination_t& lc, const std::string& path) const;

  std::vector<fr_t> inputs_{fr_t::one()};
  std::vector<fr_t> aux_;
  std::vector<std::string> input_names_{"ONE"};
  std::vector<std::string> aux_names_;
  std::vector<constraint_rec> constraints_;
  std::vector<std::string> scope_;  // full paths of the open namespaces
  std::unordered_map<std::string, named_object> names_;
};

}  // namespace cuzk::r1cs
