#pragma once
// One fallback PoSt partition as an any_circuit (the registry's
// "window-post" / "winning-post", and what the engine's PoSt kinds prove).
// As porep_partition_circuit_t does for PoRep, proving and setup take the
// compiled path (post_synthesis.hpp): prove_shape from the compiled layout,
// prove_witness from the blocks' values and the compiled matrices,
// qap_columns from the matrices (no key-generation pass, which would hold
// ~3 x 10^8 terms at 32 GiB Window). The generic synthesize overloads stay
// for tests and checks.
#include <memory>
#include <string>
#include <vector>

#include "circuits/any_circuit.hpp"
#include "circuits/porep_compiled_t.hpp"
#include "circuits/post_circuit.hpp"

namespace cuzk::circuits {

class post_partition_circuit_t final : public any_circuit {
 public:
  // The compiled form is shared per shape (compiled_post_for).
  explicit post_partition_circuit_t(post_circuit circuit);

  std::string name() const override { return post_kind_name(circuit_.shape().kind); }
  std::string description() const override { return circuit_.description(); }
  std::vector<ff::fr_t> public_inputs() const override { return circuit_.public_inputs(); }

  void synthesize(r1cs::witness_cs& cs) const override { circuit_.synthesize(cs); }
  void synthesize(r1cs::keygen_cs& cs) const override { circuit_.synthesize(cs); }
  void synthesize(r1cs::shape_cs& cs) const override { circuit_.synthesize(cs); }
  void synthesize(r1cs::test_cs& cs) const override { circuit_.synthesize(cs); }

  // Input rows (x * 0 = 0, one per input) included, as the prover counts.
  r1cs::shape_counts_t prove_shape() const override;
  // The compiled path; `reserve` is unused (sizes come from the layout).
  // Throws std::invalid_argument without a witness.
  r1cs::witness_cs prove_witness(const r1cs::shape_counts_t& reserve) const override;
  r1cs::witness_cs prove_witness_compact(const r1cs::shape_counts_t& reserve) const override;
  bool has_compact_witness() const override { return true; }
  std::optional<std::uint64_t> compact_wide_bound() const override { return compiled_->wide_aux_bound(); }
  r1cs::qap_columns_t qap_columns(std::span<const ff::fr_t> row_values) const override;

  const post_circuit& circuit() const { return circuit_; }
  const porep_compiled_t& compiled() const { return *compiled_; }

 private:
  post_circuit circuit_;
  std::shared_ptr<const porep_compiled_t> compiled_;
};

}  // namespace cuzk::circuits
