#pragma once
// Names one row of the circuit without values: counts rows like shape_cs,
// keeps the open namespaces as strings, and records the full path
// "outer/inner/constraint" of the row asked for. The second half of
// porep_check (the first half finds the row by fast synthesis). A few
// seconds for 2.7 M rows where r1cs::test_cs, which keeps every name and
// linear combination, needed minutes and gigabytes.
#include <optional>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

class porep_name_cs {
 public:
  static constexpr bool needs_values = false;

  explicit porep_name_cs(std::size_t target_row) : target_(target_row) {}

  r1cs::variable_t one() const { return r1cs::variable_t::one(); }

  template <r1cs::name_source N, r1cs::value_source V>
  r1cs::variable_t alloc(N&&, V&&) {
    return r1cs::variable_t::aux(aux_++);
  }

  template <r1cs::name_source N, r1cs::value_source V>
  r1cs::variable_t alloc_input(N&&, V&&) {
    return r1cs::variable_t::input(inputs_++);
  }

  template <r1cs::name_source N, r1cs::lc_builder A, r1cs::lc_builder B, r1cs::lc_builder C>
  void enforce(N&& name, A&&, B&&, C&&) {
    if (row_++ != target_) return;
    std::string path;
    for (const auto& s : scope_) path += s + "/";
    found_ = path + r1cs::resolve_name(std::forward<N>(name));
  }

  template <r1cs::name_source N>
  void push_namespace(N&& name) {
    scope_.push_back(r1cs::resolve_name(std::forward<N>(name)));
  }
  void pop_namespace() { scope_.pop_back(); }

  const std::optional<std::string>& found() const { return found_; }

 private:
  std::size_t target_, row_ = 0, aux_ = 0, inputs_ = 1;
  std::vector<std::string> scope_;
  std::optional<std::string> found_;
};

}  // namespace cuzk::circuits
