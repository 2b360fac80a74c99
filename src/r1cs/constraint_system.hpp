#pragma once
// The constraint-system concept, after bellman's ConstraintSystem. A circuit is
// written once as `template <constraint_system CS> void synthesize(CS&) const`
// and runs unchanged in every mode (witness, keygen, shape, test).
//
// Laziness is the point of the callables: a name costs nothing unless the mode
// keeps names (only test_cs), a value costs nothing unless the mode keeps
// values (witness_cs, test_cs), and shape_cs does not even build the linear
// combinations. So LC builders must be pure: no side effects a circuit relies on.
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "r1cs/linear_combination_t.hpp"
#include "r1cs/synthesis_error.hpp"

namespace cuzk::r1cs {

// A name is a string-like value ("x", std::string) or a callable returning one
// (`[&] { return fmt::format("round {}", i); }`); only name-keeping modes resolve it.
template <class N>
concept name_source = std::convertible_to<N, std::string_view> || requires(N&& n) {
  { std::forward<N>(n)() } -> std::convertible_to<std::string>;
};

// A value callable returns fr_t, or std::optional<fr_t> where nullopt means the
// witness is missing (allowed in modes without values, an error in the others).
template <class V>
concept value_source = std::invocable<V> &&
    (std::same_as<std::remove_cvref_t<std::invoke_result_t<V>>, fr_t> ||
     std::same_as<std::remove_cvref_t<std::invoke_result_t<V>>, std::optional<fr_t>>);

template <class F>
concept lc_builder = std::is_invocable_r_v<linear_combination_t, F, linear_combination_t>;

template <name_source N>
std::string resolve_name(N&& n) {
  if constexpr (std::convertible_to<N, std::string_view>) return std::string(std::string_view(n));
  else return std::string(std::forward<N>(n)());
}

// Calls the value callable; a missing value becomes a synthesis_error that
// names the variable (the name is resolved only on this error path).
template <value_source V, name_source N>
fr_t resolve_value(V&& v, N&& name) {
  if constexpr (std::same_as<std::remove_cvref_t<std::invoke_result_t<V>>, fr_t>) {
    return std::forward<V>(v)();
  } else {
    std::optional<fr_t> r = std::forward<V>(v)();
    if (!r) throw synthesis_error("assignment missing for '" + resolve_name(std::forward<N>(name)) + "'");
    return *r;
  }
}

namespace detail {
// Stand-ins used only inside the concept's requires-expression.
struct name_probe {
  const char* operator()() const;
};
struct value_probe {
  fr_t operator()() const;
};
struct lc_probe {
  linear_combination_t operator()(linear_combination_t) const;
};
}  // namespace detail

template <class CS>
concept constraint_system =
    requires(CS& cs, detail::name_probe n, detail::value_probe v, detail::lc_probe l) {
      { cs.alloc(n, v) } -> std::same_as<variable_t>;
      { cs.alloc_input(n, v) } -> std::same_as<variable_t>;
      cs.enforce(n, l, l, l);
      cs.push_namespace(n);
      cs.pop_namespace();
      { cs.one() } -> std::same_as<variable_t>;
      // Gadgets skip computing their own witness values when this is false.
      { std::bool_constant<CS::needs_values>{} };
    };

// False for a values-only system (CS::builds_rows == false: the compiled
// paths' porep_assign_cs, whose enforce() ignores its rows): gadgets may then
// skip building the linear combinations they would pass to enforce().
template <class CS>
inline constexpr bool builds_rows_v = [] {
  if constexpr (requires { CS::builds_rows; }) return bool(CS::builds_rows);
  else return true;
}();

// Scope guard for a namespace, the counterpart of bellman's `cs.namespace(|| ..)`.
template <class CS>
class namespace_guard {
 public:
  template <name_source N>
  namespace_guard(CS& cs, N&& name) : cs_(cs) {
    cs_.push_namespace(std::forward<N>(name));
  }
  ~namespace_guard() { cs_.pop_namespace(); }
  namespace_guard(const namespace_guard&) = delete;
  namespace_guard& operator=(const namespace_guard&) = delete;

 private:
  CS& cs_;
};

}  // namespace cuzk::r1cs
