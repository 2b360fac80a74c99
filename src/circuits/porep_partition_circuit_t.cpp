#include "circuits/porep_partition_circuit_t.hpp"

namespace cuzk::circuits {

porep_partition_circuit_t::porep_partition_circuit_t(std::shared_ptr<const porep_synthesizer_t> synthesizer,
                                                     const porep::vanilla_proof_t& proof, unsigned partition)
    : synthesizer_(std::move(synthesizer)), circuit_(synthesizer_->circuit(proof, partition)) {}

porep_partition_circuit_t::porep_partition_circuit_t(std::shared_ptr<const porep_synthesizer_t> synthesizer)
    : synthesizer_(std::move(synthesizer)), circuit_(synthesizer_->shape()) {}

std::vector<std::shared_ptr<const any_circuit>> porep_partition_circuit_t::all_partitions(
    const porep::vanilla_proof_t& proof) {
  const auto synthesizer = porep_synthesizer_t::for_sector(proof.params);
  std::vector<std::shared_ptr<const any_circuit>> out;
  out.reserve(proof.partitions.size());
  for (unsigned k = 0; k < proof.partitions.size(); ++k) {
    out.push_back(std::make_shared<const porep_partition_circuit_t>(synthesizer, proof, k));
  }
  return out;
}

void porep_partition_circuit_t::synthesize(r1cs::witness_cs& cs) const { circuit_.synthesize(cs); }
void porep_partition_circuit_t::synthesize(r1cs::keygen_cs& cs) const { circuit_.synthesize(cs); }
void porep_partition_circuit_t::synthesize(r1cs::shape_cs& cs) const { circuit_.synthesize(cs); }
void porep_partition_circuit_t::synthesize(r1cs::test_cs& cs) const { circuit_.synthesize(cs); }

r1cs::shape_counts_t porep_partition_circuit_t::prove_shape() const {
  const auto& l = synthesizer_->layout();
  return {l.num_constraints(), l.num_inputs(), l.num_aux()};
}

r1cs::qap_columns_t porep_partition_circuit_t::qap_columns(std::span<const ff::fr_t> row_values) const {
  return synthesizer_->compiled().qap_columns(row_values);
}

r1cs::witness_cs porep_partition_circuit_t::prove_witness(const r1cs::shape_counts_t&) const {
  return synthesizer_->synthesize(circuit_);
}

r1cs::witness_cs porep_partition_circuit_t::prove_witness_compact(const r1cs::shape_counts_t&) const {
  return synthesizer_->synthesize_compact(circuit_);
}

std::optional<std::uint64_t> porep_partition_circuit_t::compact_wide_bound() const {
  return synthesizer_->compiled().wide_aux_bound();
}

}  // namespace cuzk::circuits
