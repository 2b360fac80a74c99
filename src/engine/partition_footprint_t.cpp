#include "engine/partition_footprint_t.hpp"

#include <algorithm>
#include <bit>

#include "ec/curves.hpp"
#include "groth16/prover.hpp"
#include "r1cs/uninit_allocator.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::engine {
namespace {

constexpr uint64_t scalar_bytes = 32;

uint64_t domain_for(uint64_t constraints) { return std::bit_ceil(constraints < 2 ? uint64_t(2) : constraints); }

uint64_t bitmap_bytes(uint64_t bits) { return (bits + 63) / 64 * 8; }

}  // namespace

partition_footprint_t partition_footprint(const r1cs::shape_counts_t& s) {
  partition_footprint_t f;
  f.domain = domain_for(s.num_constraints);
  const uint64_t vars = s.num_inputs + s.num_aux;
  f.working = 4 * scalar_bytes * f.domain + scalar_bytes * vars + density_bytes(s);
  using alloc = r1cs::fr_vector::allocator_type;
  f.witness = 3 * alloc::rounded(scalar_bytes * f.domain) + alloc::rounded(scalar_bytes * s.num_inputs) +
              alloc::rounded(scalar_bytes * s.num_aux);
  f.witness = std::min(f.witness, f.working);
  f.pending = scalar_bytes * vars + scalar_bytes * s.num_inputs + sizeof(groth16::pending_proof_t);
  return f;
}

partition_footprint_t gpu_partition_footprint(const r1cs::shape_counts_t& s) {
  partition_footprint_t f = partition_footprint(s);
  const uint64_t vars = s.num_inputs + s.num_aux;
  f.working = 3 * scalar_bytes * f.domain + scalar_bytes * vars + density_bytes(s);
  f.witness = std::min(f.witness, f.working);
  f.pending = scalar_bytes * s.num_inputs + sizeof(groth16::pending_proof_t);
  return f;
}

uint64_t density_bytes(const r1cs::shape_counts_t& s) {
  return 2 * bitmap_bytes(s.num_inputs) + 2 * bitmap_bytes(s.num_aux);
}

uint64_t compact_assignment_max_bytes(uint64_t values, std::optional<uint64_t> wide) {
  return 3 * bitmap_bytes(values) /* wide bits, value bits, rank words */ +
         scalar_bytes * std::min(values, wide.value_or(values));
}

std::optional<uint64_t> compact_witness_held_bytes(const r1cs::witness_cs& w) {
  if (!w.is_deferred() || !w.row_evaluator()->view()) return std::nullopt;
  return w.bytes() + density_bytes({w.num_constraints(), w.num_inputs(), w.num_aux()});
}

partition_footprint_t gpu_compact_partition_footprint(const r1cs::shape_counts_t& s,
                                                      std::optional<uint64_t> wide_bound) {
  partition_footprint_t f = gpu_partition_footprint(s);
  const uint64_t wide = std::min(s.num_aux, wide_bound.value_or(s.num_aux));
  // The inputs, the slots' wide values, and the packed form they are copied into.
  const uint64_t compact = scalar_bytes * (s.num_inputs + wide) + compact_assignment_max_bytes(s.num_aux, wide) +
                           density_bytes(s);
  f.working = std::min(f.working, compact);
  // What synthesis allocates at exact sizes (and a pool could supply): the assignment.
  using alloc = r1cs::fr_vector::allocator_type;
  f.witness = std::min(f.working, alloc::rounded(scalar_bytes * s.num_inputs) + alloc::rounded(scalar_bytes * wide));
  return f;
}

uint64_t parameters_footprint(const r1cs::shape_counts_t& s) {
  const uint64_t n = domain_for(s.num_constraints);
  const uint64_t vars = s.num_inputs + s.num_aux;
  const uint64_t g1 = sizeof(ec::g1_affine_t), g2 = sizeof(ec::g2_affine_t);
  return g1 * (n - 1 + s.num_aux + 2 * vars) + g2 * vars + g1 * s.num_inputs /* vk.ic */ + 4096 /* vk */;
}

}  // namespace cuzk::engine
