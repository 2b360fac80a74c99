#pragma once
// One partition of a PoRep vanilla proof as an any_circuit, for the engine:
// prove_shape comes from the compiled layout (no shape pass over 130 M rows
// at 32 GiB) and prove_witness is the compiled path of porep_synthesizer_t.
// The setup reads the compiled matrices too (qap_columns). The generic
// synthesize overloads stay for keygen, tests and checks.
#include <memory>
#include <string>
#include <vector>

#include "circuits/any_circuit.hpp"
#include "circuits/porep_circuit.hpp"
#include "circuits/porep_synthesizer_t.hpp"
#include "porep/vanilla_proof_t.hpp"

namespace cuzk::circuits {

class porep_partition_circuit_t final : public any_circuit {
 public:
  // Throws std::invalid_argument when the proof is not for this
  // synthesizer's sector size or `partition` is out of range.
  porep_partition_circuit_t(std::shared_ptr<const porep_synthesizer_t> synthesizer,
                            const porep::vanilla_proof_t& proof, unsigned partition);

  // Without a witness, for setup and shape (the registry's "porep"):
  // prove_witness throws std::invalid_argument.
  explicit porep_partition_circuit_t(std::shared_ptr<const porep_synthesizer_t> synthesizer);

  // All partitions of `proof`, in order, sharing the per-size synthesizer.
  static std::vector<std::shared_ptr<const any_circuit>> all_partitions(const porep::vanilla_proof_t& proof);

  std::string name() const override { return "porep"; }
  std::string description() const override { return circuit_.description(); }
  std::vector<ff::fr_t> public_inputs() const override { return circuit_.public_inputs(); }

  void synthesize(r1cs::witness_cs& cs) const override;
  void synthesize(r1cs::keygen_cs& cs) const override;
  void synthesize(r1cs::shape_cs& cs) const override;
  void synthesize(r1cs::test_cs& cs) const override;

  r1cs::shape_counts_t prove_shape() const override;
  // The compiled path; `reserve` is unused (the compiled witness is sized by
  // the layout) and input rows are already in.
  r1cs::witness_cs prove_witness(const r1cs::shape_counts_t& reserve) const override;
  r1cs::witness_cs prove_witness_compact(const r1cs::shape_counts_t& reserve) const override;
  bool has_compact_witness() const override { return true; }
  std::optional<std::uint64_t> compact_wide_bound() const override;

  // From the compiled matrices (porep_compiled_t::qap_columns): no
  // key-generation pass, which would hold ~10^9 terms at 32 GiB.
  r1cs::qap_columns_t qap_columns(std::span<const ff::fr_t> row_values) const override;

  const porep_circuit& circuit() const { return circuit_; }

 private:
  std::shared_ptr<const porep_synthesizer_t> synthesizer_;
  porep_circuit circuit_;
};

}  // namespace cuzk::circuits
