#pragma once
// Host bytes one partition holds, from its shape (DESIGN.md 4), counted from
// what groth16::prove_start and r1cs::witness_cs actually allocate:
//   working  freed by the end of prove_start:
//            a, b, c padded to the domain (3 * 32 * n), the canonical H
//            scalars prove_start builds while `a` still lives (32 * n),
//            the witness assignment (32 * (n_inputs + n_aux)) and its four
//            density bitmaps (2 bits per variable for A and B, rounded to words)
//   pending  kept until finalize: canonical copies of the assignment that the
//            B_g2 thread reads (32 * (n_inputs + n_aux)), the public inputs
//            (32 * n_inputs) and the handle itself.
// At 2^27 (PoRep 32 GiB, 130 M aux) that is ~19.9 GiB working and ~3.9 GiB
// pending. CUZK_API.md 4.1 measured ~16 GiB then ~4 GiB for the Rust/CUDA
// prover, which does not keep a separate canonical copy of H on the host.
#include <cstdint>
#include <optional>

#include "r1cs/shape_counts_t.hpp"

namespace cuzk::r1cs {
class witness_cs;
}

namespace cuzk::engine {

struct partition_footprint_t {
  uint64_t domain = 0;   // n, a power of two >= constraints (inputs included)
  uint64_t working = 0;  // returned when prove_start ends
  uint64_t pending = 0;  // returned when finalize ends
  uint64_t witness = 0;  // of working: a, b, c and the assignment, each rounded to 2 MiB (what a pool can supply)

  uint64_t full() const { return working + pending; }
};

// shape.num_constraints must include the input constraints
// (shape_cs::add_input_constraints).
partition_footprint_t partition_footprint(const r1cs::shape_counts_t& shape);

// The same when prove_start runs on a GPU (groth16::gpu_prover_t): H is
// computed on the device and B_g2 too, so working is a, b, c, the
// assignment and its bitmaps, and pending only the public inputs and the
// handle. At 2^27 (PoRep 32 GiB) ~15.9 GiB in all against ~23.8 on the CPU;
// measured on the H200 host, three partitions in flight took 16 GiB each
// above the parameters (peak RSS).
partition_footprint_t gpu_partition_footprint(const r1cs::shape_counts_t& shape);

// The same for a compact witness whose rows the GPU forms (issue 18:
// compact_witness on, a circuit with compiled matrices): synthesis packs the
// aux as it assigns it (r1cs::compact_builder_t: 3 bits per variable, and
// 32 bytes per value other than 0 and 1 held per slot, then copied once into
// the packed form), beside the inputs (32 * n_inputs); prove_start adds the
// four density bitmaps; no a, b, c on the host. The values other than 0 and
// 1 count twice (the slots' pieces and their copy), at most wide_bound of
// them (any_circuit::compact_wide_bound, which synthesis enforces), every aux
// when nullopt: working, reserved before synthesis, ~0.2 GiB at 32 GiB PoRep
// with its bound (1.31 % of the aux) and ~7.8 GiB without (instead of ~15.9
// eager); a PoSt partition's is ~2 x 4 GiB either way (99 % wide).
// Once synthesized the engine keeps only the witness's real bytes
// (prove_backend_t::witness_held_bytes: ~0.1 GiB there, 1.31 % of its aux
// wide) plus pending.
partition_footprint_t gpu_compact_partition_footprint(const r1cs::shape_counts_t& shape,
                                                      std::optional<uint64_t> wide_bound = std::nullopt);

// How a partition's witness leaves synthesis (prove_backend_t::footprint):
// whole, or compact with at most wide_bound aux values other than 0 and 1
// (nullopt: every aux).
struct witness_form_t {
  bool compact = false;
  std::optional<uint64_t> wide_bound;
};

// What such a witness holds once synthesized, until a GPU's prove_start
// ends: its own bytes (the packed aux and the inputs) and the density
// bitmaps prove_start adds; nullopt for a witness that is not compact or
// whose rows have no device form (row_evaluator_t::view).
std::optional<uint64_t> compact_witness_held_bytes(const r1cs::witness_cs& w);

// Bytes of a witness's four density bitmaps (A and B, inputs and aux).
uint64_t density_bytes(const r1cs::shape_counts_t& shape);
// Upper bound of compact_assignment_t::bytes() for `values` values, `wide`
// of them other than 0 and 1 (all when nullopt).
uint64_t compact_assignment_max_bytes(uint64_t values, std::optional<uint64_t> wide = std::nullopt);

// Upper bound of the bytes a parameter set for this shape occupies in memory
// (h: n - 1, l: n_aux, a and b_g1: at most all variables in G1, b_g2 in G2).
uint64_t parameters_footprint(const r1cs::shape_counts_t& shape);

}  // namespace cuzk::engine
