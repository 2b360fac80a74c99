#pragma once
// Compiled synthesis of a SnapDeals partition, as post_synthesis.hpp does
// for PoSt: the top block (k_and_h_select, phi, the comm_r checks, the apex
// tree, the partition path and the challenge digests) then one block per
// challenge with the same rows up to a shift of its own variables. A
// challenge also reads top-block variables: the same ones for every challenge
// (phi, both Tree R roots, the apex leaves, the partition and h_select bits)
// and its own random bits, a slice of a digest's 255 bits at an offset that
// is not linear in the challenge. Those are the blocks' window
// (porep_layout_t::windows, porep_sparse_rows_t::window_aux), so a 32 GiB
// partition (81,049,499 rows) compiles to a top block and one challenge
// block. A witness is the top block's values, then every challenge's in
// parallel, each into its own slot (porep_assign_cs), and a, b, c from the
// compiled matrices: bit-identical to r1cs::witness_cs running
// snap_circuit::synthesize with input rows (tests/circuits/test_snap_synthesis.cpp).
#include <memory>

#include "circuits/porep_compiled_t.hpp"
#include "circuits/porep_layout_t.hpp"
#include "circuits/porep_witness_t.hpp"
#include "circuits/snap_circuit.hpp"

namespace cuzk::circuits {

// Measured by shape passes over the top block and challenge 0; the windows
// are each challenge's random bits. Throws std::logic_error if a challenge's
// random bits are not consecutive aux variables of the top block.
porep_layout_t snap_layout(const porep::snap_shape_t& shape);

// Records the top block and challenge 0's block of `shape`.
porep_compiled_t compile_snap(const porep::snap_shape_t& shape);

// The compiled form of a sector size, built on first use and shared for the
// life of the process; safe to call from several threads.
std::shared_ptr<const porep_compiled_t> compiled_snap_for(const porep::snap_shape_t& shape);

// The witness of a circuit carrying one, input rows included. Runs in
// parallel on the calling thread's TBB arena. Throws std::invalid_argument
// for a circuit without a witness or a compiled form of another shape.
porep_witness_t synthesize_snap_compiled(const snap_circuit& circuit, const porep_compiled_t& compiled);
// Its values only: inputs and aux assigned, no rows (a, b, c empty).
// compact_aux: the aux packed as it is assigned (assign_porep_compiled).
porep_witness_t assign_snap_compiled(const snap_circuit& circuit, const porep_compiled_t& compiled, bool compact_aux = false);

}  // namespace cuzk::circuits
