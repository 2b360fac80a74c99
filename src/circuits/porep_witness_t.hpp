#pragma once
// The output of fast PoRep synthesis: the same vectors r1cs::witness_cs
// produces (a, b, c per row, input rows appended; the assignments; A/B
// density bitmaps in density_tracker's word layout), allocated once at their
// exact final size and filled in place by parallel tasks.
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/compact_assignment_t.hpp"
#include "r1cs/uninit_allocator.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::circuits {

struct porep_witness_t {
  // Not zero-filled on resize (r1cs/uninit_allocator.hpp).
  using fr_vector = r1cs::fr_vector;

  fr_vector inputs;  // ONE first
  fr_vector aux;
  // When set (the compact path), values-only synthesis writes the aux here
  // instead of into `aux`, which stays empty: no full-width assignment.
  std::unique_ptr<r1cs::compact_builder_t> aux_compact;
  fr_vector a, b, c;
  // Bit i of word i/64; words past the size are zero.
  std::vector<std::uint64_t> a_input_density, b_input_density, a_aux_density, b_aux_density;

  std::size_t num_constraints() const { return a.size(); }

  // Hands every buffer over to the prover's witness type without a copy.
  r1cs::witness_cs into_witness_cs() &&;
};

}  // namespace cuzk::circuits
