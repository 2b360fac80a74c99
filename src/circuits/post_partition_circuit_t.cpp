#include "circuits/post_partition_circuit_t.hpp"

#include "circuits/porep_synthesis.hpp"
#include "circuits/post_synthesis.hpp"

namespace cuzk::circuits {

post_partition_circuit_t::post_partition_circuit_t(post_circuit circuit)
    : circuit_(std::move(circuit)), compiled_(compiled_post_for(circuit_)) {}

r1cs::shape_counts_t post_partition_circuit_t::prove_shape() const {
  const porep_layout_t& l = compiled_->layout();
  return {l.num_constraints(), l.num_inputs(), l.num_aux()};
}

r1cs::witness_cs post_partition_circuit_t::prove_witness(const r1cs::shape_counts_t&) const {
  return synthesize_post_compiled(circuit_, *compiled_).into_witness_cs();
}

r1cs::witness_cs post_partition_circuit_t::prove_witness_compact(const r1cs::shape_counts_t&) const {
  return into_deferred_witness(assign_post_compiled(circuit_, *compiled_, true), compiled_);
}

r1cs::qap_columns_t post_partition_circuit_t::qap_columns(std::span<const ff::fr_t> row_values) const {
  return compiled_->qap_columns(row_values);
}

}  // namespace cuzk::circuits
