#include "circuits/snap_partition_circuit_t.hpp"

#include "circuits/porep_synthesis.hpp"
#include "circuits/snap_synthesis.hpp"

namespace cuzk::circuits {

snap_partition_circuit_t::snap_partition_circuit_t(snap_circuit circuit)
    : circuit_(std::move(circuit)), compiled_(compiled_snap_for(circuit_.shape())) {}

r1cs::shape_counts_t snap_partition_circuit_t::prove_shape() const {
  const porep_layout_t& l = compiled_->layout();
  return {l.num_constraints(), l.num_inputs(), l.num_aux()};
}

r1cs::witness_cs snap_partition_circuit_t::prove_witness(const r1cs::shape_counts_t&) const {
  return synthesize_snap_compiled(circuit_, *compiled_).into_witness_cs();
}

r1cs::witness_cs snap_partition_circuit_t::prove_witness_compact(const r1cs::shape_counts_t&) const {
  return into_deferred_witness(assign_snap_compiled(circuit_, *compiled_, true), compiled_);
}

r1cs::qap_columns_t snap_partition_circuit_t::qap_columns(std::span<const ff::fr_t> row_values) const {
  return compiled_->qap_columns(row_values);
}

}  // namespace cuzk::circuits
