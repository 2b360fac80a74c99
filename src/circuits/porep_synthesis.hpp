#pragma once
// Fast witness synthesis of one PoRep partition (issue 4 part 5). Every
// buffer is allocated once at its final size from the layout (no growth
// copies), the top block is synthesized first, then the challenge blocks in
// three parallel phases (TBB), each task writing its own fixed slot:
//   1. per challenge: data leaf, 14 parent columns, challenge bits (cheap; their
//      variables feed phase 2);
//   2. per challenge: Tree D inclusion and each layer's label (~ 99 % of rows,
//      challenges x (layers + 1) independent tasks);
//   3. per challenge: encoding, Tree R, column hash, Tree C (needs the labels).
// The result is bit-identical to r1cs::witness_cs running porep_circuit
// sequentially with add_input_constraints() (tests/circuits/test_porep_synthesis.cpp).
#include <memory>

#include "circuits/porep_circuit.hpp"
#include "circuits/porep_compiled_t.hpp"
#include "circuits/porep_layout_t.hpp"
#include "circuits/porep_witness_t.hpp"

namespace cuzk::circuits {

// A witness of the layout's exact sizes, ONE assigned, densities zero, a, b, c
// with room for the NTT domain (the next power of two) so the prover's
// zero-extension copies nothing. For any circuit a porep_compiled_t fits.
// Without rows (with_rows false): a, b, c left empty, for the compact path.
porep_witness_t allocate_block_witness(const porep_layout_t& layout, bool with_rows = true);
// For values-only synthesis over `compiled` (no rows); compact_aux: the aux
// goes into w.aux_compact as it is assigned, refusing more values other than
// 0 and 1 than compiled.wide_aux_bound(), and w.aux stays empty.
porep_witness_t allocate_values_witness(const porep_compiled_t& compiled, bool compact_aux);

// a, b, c (room for the domain) and the densities of an assigned witness
// from the compiled matrices.
void form_rows(porep_witness_t& w, const porep_compiled_t& compiled);

// The compact path (issue 18): the assignment packed (r1cs::compact_assignment_t)
// into a deferred r1cs::witness_cs whose rows `compiled` forms when the
// prover asks. `w` needs only its inputs and aux (or aux_compact, already
// packed while it was assigned).
r1cs::witness_cs into_deferred_witness(porep_witness_t&& w, std::shared_ptr<const porep_compiled_t> compiled);

// The circuit must carry a witness; the layout must be measured on its shape.
// Runs on the calling thread's TBB arena (bound threads with tbb::task_arena).
porep_witness_t synthesize_porep_witness(const porep_circuit& circuit, const porep_layout_t& layout);

// The compiled path: the same schedule computing values only (no linear
// combinations built), then a, b, c and the densities from the compiled
// matrices. Bit-identical to synthesize_porep_witness.
porep_witness_t synthesize_porep_compiled(const porep_circuit& circuit, const porep_compiled_t& compiled);
// Its values only: inputs and aux assigned, no rows (a, b, c empty); with
// compact_aux the aux is packed as it is assigned (w.aux_compact, for
// into_deferred_witness) and never held at full width.
porep_witness_t assign_porep_compiled(const porep_circuit& circuit, const porep_compiled_t& compiled,
                                      bool compact_aux = false);

}  // namespace cuzk::circuits
