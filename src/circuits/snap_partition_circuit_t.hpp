#pragma once
// One SnapDeals partition as an any_circuit (the registry's "snap", and what
// the engine's SNAP_DEALS_UPDATE kind proves). As post_partition_circuit_t
// does for PoSt, proving and setup take the compiled path
// (snap_synthesis.hpp): prove_shape from the compiled layout, prove_witness
// from the values and the compiled matrices, prove_witness_compact for the
// device's rows, qap_columns from the matrices (no key-generation pass). The
// generic synthesize overloads stay for tests and checks.
#include <memory>
#include <string>
#include <vector>

#include "circuits/any_circuit.hpp"
#include "circuits/porep_compiled_t.hpp"
#include "circuits/snap_circuit.hpp"

namespace cuzk::circuits {

class snap_partition_circuit_t final : public any_circuit {
 public:
  // The compiled form is shared per sector size (compiled_snap_for).
  explicit snap_partition_circuit_t(snap_circuit circuit);

  std::string name() const override { return "snap"; }
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

  const snap_circuit& circuit() const { return circuit_; }
  const porep_compiled_t& compiled() const { return *compiled_; }

 private:
  snap_circuit circuit_;
  std::shared_ptr<const porep_compiled_t> compiled_;
};

}  // namespace cuzk::circuits
