#pragma once
// Proving mode, after bellman's ProvingAssignment: keeps the assignment and,
// per constraint, only the evaluations a_i = <A_i, w>, b_i, c_i (no linear
// combinations are stored), plus the density bitmaps the MSMs need.
// Cost per term: one Fr multiplication unless the coefficient is 1 or the
// variable is ONE. Memory: 3 * 32 bytes per constraint + 32 per variable +
// 4 bits per variable; reserve() from a shape_cs pass avoids the 1.5x peak of
// vector doubling at 2^27 constraints.
#include <algorithm>
#include <bit>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "r1cs/compact_assignment_t.hpp"
#include "r1cs/compiled_rows_view_t.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/density_tracker.hpp"
#include "r1cs/shape_counts_t.hpp"
#include "r1cs/uninit_allocator.hpp"

namespace cuzk::r1cs {

class witness_cs {
 public:
  static constexpr bool needs_values = true;

  witness_cs() {
    input_assignment_.push_back(fr_t::one());
    a_input_density_.add_element();
    b_input_density_.add_element();
  }

  // Everything a witness is, already computed elsewhere (the compiled PoRep
  // path fills these in parallel at their final size): the assignments with
  // ONE first, a, b, c per row with the input rows appended, and the four
  // densities. Throws std::invalid_argument when the sizes disagree.
  struct parts_t {
    fr_vector inputs, aux, a, b, c;
    density_tracker a_input_density, b_input_density, a_aux_density, b_aux_density;
  };
  static witness_cs from_parts(parts_t&& p);

  // What forms a compiled circuit's rows from its assignment (the compact
  // path, issue 18): given p.inputs and p.aux, fills p.a, p.b, p.c (input
  // rows included, capacity up to the domain) and the four densities.
  class row_evaluator_t {
   public:
    virtual ~row_evaluator_t() = default;
    virtual shape_counts_t counts() const = 0;  // input constraints included
    virtual void evaluate(parts_t& p) const = 0;
    // The four densities alone, sized to counts() (what evaluate() sets),
    // for a prover that forms the rows itself.
    virtual void densities(parts_t& p) const = 0;
    // The rows in the flat form a device evaluates; valid while the
    // evaluator lives. nullptr where there is none.
    virtual const compiled_rows_view_t* view() const { return nullptr; }
  };
  // A witness whose rows are not formed yet: the inputs, the aux packed, and
  // what forms a, b, c when the prover asks (materialize()). Until then it
  // holds compact_assignment_t::bytes() + 32 per input instead of
  // 32 * (3 rows + variables). Throws std::invalid_argument when the sizes
  // are not the evaluator's.
  static witness_cs deferred(fr_vector inputs, compact_assignment_t aux, std::shared_ptr<const row_evaluator_t> rows);
  bool is_deferred() const { return rows_ != nullptr; }
  const compact_assignment_t& compact_aux() const { return compact_aux_; }
  const std::shared_ptr<const row_evaluator_t>& row_evaluator() const { return rows_; }
  // Unpacks the aux and forms a, b, c and the densities; then the witness
  // is what from_parts gives. Nothing when it is not deferred.
  void materialize();
  // For a deferred witness, sets the four densities from its evaluator and
  // leaves it deferred (a prover forming the rows on the device needs the
  // densities only); nothing otherwise.
  void form_densities();
  // Host bytes the witness's buffers hold now (capacities).
  std::size_t bytes() const;

  // Sizes from a shape pass; num_constraints should include the input constraints.
  // a, b and c up to the evaluation domain (the next power of two): the
  // prover pads them to it, and a padding that reallocates copies three
  // vectors (1.5 GiB at 2^24 rows; measured ~0.6 s of prove_start on an H200 host).
  void reserve(const shape_counts_t& s) {
    input_assignment_.reserve(s.num_inputs);
    aux_assignment_.reserve(s.num_aux);
    const std::size_t domain = std::bit_ceil(std::max<std::size_t>(s.num_constraints, 2));
    a_.reserve(domain);
    b_.reserve(domain);
    c_.reserve(domain);
    a_input_density_.reserve(s.num_inputs);
    b_input_density_.reserve(s.num_inputs);
    a_aux_density_.reserve(s.num_aux);
    b_aux_density_.reserve(s.num_aux);
  }

  variable_t one() const { return variable_t::one(); }

  template <name_source N, value_source V>
  variable_t alloc(N&& name, V&& value) {
    aux_assignment_.push_back(resolve_value(std::forward<V>(value), std::forward<N>(name)));
    a_aux_density_.add_element();
    b_aux_density_.add_element();
    return variable_t::aux(aux_assignment_.size() - 1);
  }

  template <name_source N, value_source V>
  variable_t alloc_input(N&& name, V&& value) {
    input_assignment_.push_back(resolve_value(std::forward<V>(value), std::forward<N>(name)));
    a_input_density_.add_element();
    b_input_density_.add_element();
    return variable_t::input(input_assignment_.size() - 1);
  }

  template <name_source N, lc_builder A, lc_builder B, lc_builder C>
  void enforce(N&&, A&& a, B&& b, C&& c) {
    a_.push_back(eval(std::forward<A>(a)(linear_combination_t{}), &a_input_density_, &a_aux_density_));
    b_.push_back(eval(std::forward<B>(b)(linear_combination_t{}), &b_input_density_, &b_aux_density_));
    c_.push_back(eval(std::forward<C>(c)(linear_combination_t{}), nullptr, nullptr));
  }

  template <name_source N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  // Appends x_i * 0 = 0 for every input (ONE included), as bellman's prover
  // does: it makes the input polynomials of A linearly independent, which the
  // security proof of Groth16 needs. Invariant afterwards: inputs have full
  // density in the A query because there are constraints of the form x * 0 = 0
  // for each input.
  void add_input_constraints() {
    for (size_t i = 0; i < input_assignment_.size(); ++i) {
      enforce("", [i](linear_combination_t lc) { return lc + variable_t::input(i); },
              [](linear_combination_t lc) { return lc; }, [](linear_combination_t lc) { return lc; });
    }
  }

  size_t num_constraints() const { return rows_ ? rows_->counts().num_constraints : a_.size(); }
  size_t num_inputs() const { return input_assignment_.size(); }
  size_t num_aux() const { return rows_ ? compact_aux_.size() : aux_assignment_.size(); }
  shape_counts_t counts() const { return {num_constraints(), num_inputs(), num_aux()}; }

  const fr_vector& input_assignment() const { return input_assignment_; }
  const fr_vector& aux_assignment() const { return aux_assignment_; }
  const fr_vector& a() const { return a_; }
  const fr_vector& b() const { return b_; }
  const fr_vector& c() const { return c_; }
  const density_tracker& a_input_density() const { return a_input_density_; }
  const density_tracker& a_aux_density() const { return a_aux_density_; }
  const density_tracker& b_input_density() const { return b_input_density_; }
  const density_tracker& b_aux_density() const { return b_aux_density_; }

  // Set by groth16::check_witness_rows once a_i * b_i = c_i held on every
  // row, so prove_start need not check again (the engine checks right after
  // synthesis, off the prove worker's path). Rows added later undo it.
  void mark_rows_checked() { rows_checked_ = a_.size(); }
  bool rows_checked() const { return rows_checked_ != 0 && rows_checked_ == a_.size(); }

  // The prover frees a, b, c as soon as the GPU holds them; these hand the
  // buffers over instead of copying 3 * 32 * n bytes.
  fr_vector take_a() { return std::exchange(a_, {}); }
  fr_vector take_b() { return std::exchange(b_, {}); }
  fr_vector take_c() { return std::exchange(c_, {}); }
  fr_vector take_aux_assignment() { return std::exchange(aux_assignment_, {}); }
  fr_vector take_input_assignment() { return std::exchange(input_assignment_, {}); }

 private:
  // A variable is dense once it appears with a nonzero coefficient; terms of
  // one LC that cancel each other would still mark it, so gadgets must not
  // emit them (the same contract as bellman).
  fr_t eval(const linear_combination_t& lc, density_tracker* input_density, density_tracker* aux_density) {
    fr_t acc = fr_t::zero();
    for (const term_t& t : lc) {
      size_t i = t.var.index();
      bool is_input = t.var.is_input();
      acc += linear_combination_t::term_value(t, is_input ? input_assignment_[i] : aux_assignment_[i]);
      if (t.coeff.is_zero()) continue;
      if (density_tracker* d = is_input ? input_density : aux_density) d->inc(i);
    }
    return acc;
  }

  fr_vector input_assignment_;
  fr_vector aux_assignment_;
  compact_assignment_t compact_aux_;               // deferred only
  std::shared_ptr<const row_evaluator_t> rows_;  // deferred only
  size_t rows_checked_ = 0;  // rows when mark_rows_checked was called
  fr_vector a_, b_, c_;
  density_tracker a_input_density_, a_aux_density_;
  density_tracker b_input_density_, b_aux_density_;
};

inline witness_cs witness_cs::from_parts(parts_t&& p) {
  const std::size_t rows = p.a.size();
  if (p.b.size() != rows || p.c.size() != rows) throw std::invalid_argument("witness_cs::from_parts: a, b, c differ in length");
  if (p.inputs.empty()) throw std::invalid_argument("witness_cs::from_parts: no inputs (ONE comes first)");
  if (rows < p.inputs.size()) throw std::invalid_argument("witness_cs::from_parts: fewer rows than input rows");
  if (p.a_input_density.size() != p.inputs.size() || p.b_input_density.size() != p.inputs.size() ||
      p.a_aux_density.size() != p.aux.size() || p.b_aux_density.size() != p.aux.size()) {
    throw std::invalid_argument("witness_cs::from_parts: a density's size differs from its assignment's");
  }
  witness_cs w;
  w.input_assignment_ = std::move(p.inputs);
  w.aux_assignment_ = std::move(p.aux);
  w.a_ = std::move(p.a);
  w.b_ = std::move(p.b);
  w.c_ = std::move(p.c);
  w.a_input_density_ = std::move(p.a_input_density);
  w.b_input_density_ = std::move(p.b_input_density);
  w.a_aux_density_ = std::move(p.a_aux_density);
  w.b_aux_density_ = std::move(p.b_aux_density);
  return w;
}

inline witness_cs witness_cs::deferred(fr_vector inputs, compact_assignment_t aux,
                                      std::shared_ptr<const row_evaluator_t> rows) {
  if (!rows) throw std::invalid_argument("witness_cs::deferred: no row evaluator");
  const shape_counts_t n = rows->counts();
  if (inputs.size() != n.num_inputs || aux.size() != n.num_aux) {
    throw std::invalid_argument("witness_cs::deferred: " + std::to_string(inputs.size()) + " inputs and " +
                                std::to_string(aux.size()) + " aux for a circuit of " + std::to_string(n.num_inputs) +
                                " and " + std::to_string(n.num_aux));
  }
  witness_cs w;
  w.input_assignment_ = std::move(inputs);
  w.compact_aux_ = std::move(aux);
  w.rows_ = std::move(rows);
  w.a_input_density_ = {};
  w.b_input_density_ = {};
  return w;
}

inline void witness_cs::materialize() {
  if (!rows_) return;
  parts_t p;
  p.inputs = std::move(input_assignment_);
  p.aux = compact_aux_.unpack();
  rows_->evaluate(p);
  const std::shared_ptr<const row_evaluator_t> rows = std::exchange(rows_, nullptr);
  compact_aux_ = {};
  *this = from_parts(std::move(p));
  if (a_.size() != rows->counts().num_constraints) {
    throw std::logic_error("witness_cs::materialize: the evaluator formed " + std::to_string(a_.size()) +
                           " rows, not " + std::to_string(rows->counts().num_constraints));
  }
}

inline void witness_cs::form_densities() {
  if (!rows_) return;
  parts_t p;
  rows_->densities(p);
  const shape_counts_t n = rows_->counts();
  if (p.a_input_density.size() != n.num_inputs || p.b_input_density.size() != n.num_inputs ||
      p.a_aux_density.size() != n.num_aux || p.b_aux_density.size() != n.num_aux) {
    throw std::logic_error("witness_cs::form_densities: the evaluator's densities are of another shape");
  }
  a_input_density_ = std::move(p.a_input_density);
  b_input_density_ = std::move(p.b_input_density);
  a_aux_density_ = std::move(p.a_aux_density);
  b_aux_density_ = std::move(p.b_aux_density);
}

inline std::size_t witness_cs::bytes() const {
  std::size_t n = compact_aux_.bytes();
  for (const fr_vector* v : {&input_assignment_, &aux_assignment_, &a_, &b_, &c_}) n += v->capacity() * sizeof(fr_t);
  for (const density_tracker* d : {&a_input_density_, &b_input_density_, &a_aux_density_, &b_aux_density_})
    n += (d->size() + 63) / 64 * sizeof(std::uint64_t);
  return n;
}

}  // namespace cuzk::r1cs
