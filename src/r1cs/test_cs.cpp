#include "r1cs/test_cs.hpp"

namespace cuzk::r1cs {

test_cs::test_cs() { names_.emplace("ONE", named_object{object_kind::variable, variable_t::one()}); }

std::string test_cs::claim_path(std::string_view name) const {
  if (name.find('/') != std::string_view::npos) {
    throw synthesis_error("name '" + std::string(name) + "' contains '/'");
  }
  if (scope_.empty()) return std::string(name);
  return scope_.back() + "/" + std::string(name);
}

void test_cs::register_path(const std::string& path, named_object obj) {
  if (!names_.emplace(path, obj).second) throw synthesis_error("duplicate path '" + path + "'");
}

variable_t test_cs::add_variable(var_kind kind, std::string path, const fr_t& v) {
  auto& values = kind == var_kind::input ? inputs_ : aux_;
  auto& names = kind == var_kind::input ? input_names_ : aux_names_;
  variable_t var(kind, values.size());
  register_path(path, {object_kind::variable, var});
  values.push_back(v);
  names.push_back(std::move(path));
  return var;
}

void test_cs::check_lc(const linear_combination_t& lc, const std::string& path) const {
  for (const term_t& t : lc) {
    size_t n = t.var.is_input() ? inputs_.size() : aux_.size();
    if (t.var.index() >= n) throw synthesis_error("constraint '" + path + "' uses an unallocated variable");
  }
}

void test_cs::add_constraint(std::string path, linear_combination_t a, linear_combination_t b,
                             linear_combination_t c) {
  check_lc(a, path);
  check_lc(b, path);
  check_lc(c, path);
  register_path(path, {object_kind::constraint, variable_t{}});
  constraints_.push_back({std::move(path), std::move(a), std::move(b), std::move(c)});
}

void test_cs::enter(std::string path) {
  register_path(path, {object_kind::name_space, variable_t{}});
  scope_.push_back(std::move(path));
}

void test_cs::pop_namespace() {
  if (scope_.empty()) throw synthesis_error("pop_namespace without a matching push");
  scope_.pop_back();
}

std::optional<std::string> test_cs::which_is_unsatisfied() const {
  for (const constraint_rec& k : constraints_) {
    fr_t a = k.a.evaluate(inputs_, aux_);
    fr_t b = k.b.evaluate(inputs_, aux_);
    fr_t c = k.c.evaluate(inputs_, aux_);
    if (a * b != c) return k.path;
  }
  return std::nullopt;
}

bool test_cs::verify(std::span<const fr_t> expected) const {
  if (expected.size() + 1 != inputs_.size()) return false;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] != inputs_[i + 1]) return false;
  }
  return is_satisfied();
}

const std::string& test_cs::variable_name(variable_t v) const {
  return v.is_input() ? input_names_.at(v.index()) : aux_names_.at(v.index());
}

fr_t test_cs::value(variable_t v) const { return v.is_input() ? inputs_.at(v.index()) : aux_.at(v.index()); }

void test_cs::set_value(variable_t v, const fr_t& x) {
  (v.is_input() ? inputs_.at(v.index()) : aux_.at(v.index())) = x;
}

std::optional<variable_t> test_cs::find_variable(std::string_view path) const {
  auto it = names_.find(std::string(path));
  if (it == names_.end() || it->second.kind != object_kind::variable) return std::nullopt;
  return it->second.var;
}

}  // namespace cuzk::r1cs
