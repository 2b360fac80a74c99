#pragma once
// The checks every prove_start (CPU or GPU) makes before any transform, so
// both report a mismatch or an unsatisfied witness with the same words.
#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/parameters_t.hpp"
#include "poly/domain.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::groth16 {

// Throws std::invalid_argument naming the query whose length does not match
// the circuit (vk.ic, h for a domain of `domain_n`, l, a, b_g1, b_g2).
void check_parameters_fit(const query_sizes_t& sizes, const r1cs::witness_cs& w, std::size_t domain_n);

// What check_satisfied throws: the witness is at fault, not the prover or
// the device, so another attempt cannot succeed (the engine fails the job).
struct unsatisfied_witness : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Throws unsatisfied_witness naming the row (a device check found it).
[[noreturn]] void throw_unsatisfied(std::size_t row);

// The cheap exact check: a_i b_i = c_i on every row; throws
// unsatisfied_witness naming the row.
void check_satisfied(std::span<const ff::fr_t> a, std::span<const ff::fr_t> b, std::span<const ff::fr_t> c);

// check_satisfied on the witness's rows, then marks it checked, so that
// take_checked_evaluations does not check it again. The engine calls it right
// after synthesis: on a synthesis worker, not on the prove worker that feeds
// the GPU (measured 0.36-0.89 s per 32 GiB PoRep partition). A deferred
// witness has no rows yet and is left unmarked. Throws like check_satisfied.
void check_witness_rows(r1cs::witness_cs& w);

// The scalars whose density bit is set, in order (the k-th pairs with the
// k-th base of a density-filtered query), gathered in parallel.
std::vector<ff::fr_t> compact_dense(std::span<const ff::fr_t> scalars, const r1cs::density_tracker& d);

// What both prove_starts begin with: a deferred witness materialized, the
// domain, the parameters checked against the witness, and a, b, c taken out of it, checked row by row
// (unless check_witness_rows did) and zero-extended to the domain size.
struct qap_evaluations_t {
  poly::domain_t domain;
  r1cs::fr_vector a, b, c;
};
qap_evaluations_t take_checked_evaluations(const query_sizes_t& sizes, r1cs::witness_cs& w);

}  // namespace cuzk::groth16
