#pragma once
// Compiled synthesis of a fallback PoSt partition. Every sector block has the
// same rows up to a shift of its variables (nothing in post_circuit's control
// flow depends on witness values, and blocks share no variable but ONE), so a
// partition compiles to one block (53,333 rows at 32 GiB Window instead of
// 125 M) with porep_compiled_t's machinery: the layout is PoRep's with an
// empty top block. A witness is then every block's values, computed in
// parallel into its own slot (porep_assign_cs: no linear combinations built),
// and a, b, c and the densities from the compiled matrices. The result is
// bit-identical to r1cs::witness_cs running post_circuit::synthesize with
// input rows (tests/circuits/test_post_circuit.cpp), and the setup reads the
// same matrices (porep_compiled_t::qap_columns) instead of a key-generation
// pass holding ~3 x 10^8 terms.
#include <memory>

#include "circuits/porep_compiled_t.hpp"
#include "circuits/porep_layout_t.hpp"
#include "circuits/porep_witness_t.hpp"
#include "circuits/post_circuit.hpp"

namespace cuzk::circuits {

// Top block empty (inputs start after ONE), one block per sector block of
// the circuit, sized by one block's shape pass.
porep_layout_t post_layout(const post_circuit& circuit);

// Records block 0 of `circuit` (with or without a witness).
porep_compiled_t compile_post(const post_circuit& circuit);

// The compiled form of this circuit's shape, built on first use (a few ms)
// and shared for the life of the process; safe to call from several threads.
std::shared_ptr<const porep_compiled_t> compiled_post_for(const post_circuit& circuit);

// The witness of a circuit carrying one, input rows included. Runs in
// parallel on the calling thread's TBB arena. Throws std::invalid_argument
// for a circuit without a witness or a compiled form of another shape.
porep_witness_t synthesize_post_compiled(const post_circuit& circuit, const porep_compiled_t& compiled);
// Its values only: inputs and aux assigned, no rows (a, b, c empty).
// compact_aux: the aux packed as it is assigned (assign_porep_compiled).
porep_witness_t assign_post_compiled(const post_circuit& circuit, const porep_compiled_t& compiled, bool compact_aux = false);

}  // namespace cuzk::circuits
