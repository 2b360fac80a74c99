#pragma once
// A circuit chosen at run time (by name, from the CLI or a request): the one
// coarse seam where circuits are polymorphic. Each virtual forwards to the
// circuit's templated synthesize, so the arithmetic stays monomorphic.
// prove_shape and prove_witness are what the engine asks for; a circuit with
// a faster path than generic synthesis (PoRep: porep_partition_circuit_t)
// overrides them.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "r1cs/keygen_cs.hpp"
#include "r1cs/qap_columns_t.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::circuits {

class any_circuit {
 public:
  virtual ~any_circuit() = default;

  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Public inputs in allocation order, ONE excluded.
  virtual std::vector<ff::fr_t> public_inputs() const = 0;

  virtual void synthesize(r1cs::witness_cs& cs) const = 0;
  virtual void synthesize(r1cs::keygen_cs& cs) const = 0;
  virtual void synthesize(r1cs::shape_cs& cs) const = 0;
  virtual void synthesize(r1cs::test_cs& cs) const = 0;

  // Counts as the prover sees them: input rows (x * 0 = 0) included in
  // num_constraints, ONE included in num_inputs. Default: a shape-mode pass.
  virtual r1cs::shape_counts_t prove_shape() const {
    r1cs::shape_cs shape;
    synthesize(shape);
    shape.add_input_constraints();
    return shape.counts();
  }

  // What a Groth16 setup reads of the matrices (r1cs/qap_columns_t.hpp):
  // every column evaluated at `row_values`, one per row of prove_shape()
  // (more are ignored). Default: a key-generation pass, which keeps every
  // term (40 bytes each); a circuit with compiled matrices (PoRep) overrides
  // it. Throws std::invalid_argument on too few row values.
  virtual r1cs::qap_columns_t qap_columns(std::span<const ff::fr_t> row_values) const {
    r1cs::keygen_cs cs;
    synthesize(cs);
    cs.add_input_constraints();
    return cs.columns_at(row_values);
  }

  // The witness for groth16::prove_start, input rows included. `reserve` is
  // prove_shape(): exact sizes, so no vector-doubling peak beyond the
  // engine's reserved footprint.
  virtual r1cs::witness_cs prove_witness(const r1cs::shape_counts_t& reserve) const {
    r1cs::witness_cs cs;
    cs.reserve(reserve);
    synthesize(cs);
    cs.add_input_constraints();
    return cs;
  }

  // The same witness in its compact form where the circuit has compiled
  // matrices (r1cs::witness_cs::deferred: the assignment packed, the rows
  // formed when the prover asks); prove_witness for the others.
  virtual r1cs::witness_cs prove_witness_compact(const r1cs::shape_counts_t& reserve) const {
    return prove_witness(reserve);
  }
  // Whether prove_witness_compact gives a compact witness (compiled matrices).
  virtual bool has_compact_witness() const { return false; }
  // With a compact witness: at most this many of its aux values are other
  // than 0 and 1 (porep_compiled_t::wide_aux_bound: the rest are bits in any
  // satisfying witness; prove_witness_compact refuses a witness with more),
  // what the engine reserves for while it is synthesized. nullopt: unknown.
  virtual std::optional<std::uint64_t> compact_wide_bound() const { return std::nullopt; }
};

}  // namespace cuzk::circuits
