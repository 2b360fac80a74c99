#pragma once
// Poseidon parameters exactly as Filecoin instantiates them through neptune
// (argumentcomputer/neptune v11, `PoseidonConstants::new()`: Strength::Standard,
// HashType::MerkleTree, x^5 S-box, width t = arity + 1; FILECOIN_POREP.md §3.2).
// Everything is derived here rather than pasted, and each step names the
// neptune file it restates:
//   round numbers     round_numbers.rs (port of the Poseidon authors' calc_round_numbers.py)
//   round constants   round_constants.rs (Grain LFSR of the Poseidon reference scripts)
//   MDS matrix        mds.rs (Cauchy matrix 1/(x_i + y_j), x_i = i, y_j = t + j)
//   optimized form    preprocessing.rs (compressed constants), mds.rs (sparse factorization)
// Matrices use neptune's convention: the state is a row vector and a mix is
// s'_j = sum_i s_i * M[i][j].
#include <cstddef>
#include <utility>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::gadgets {

// One factor of the partial-round mix (neptune's SparseMatrix, "M''"):
// identity except column 0 and row 0. Applied to s:
//   s'_0 = sum_i s_i * col0[i],   s'_j = s_j + s_0 * row0[j-1]  (j >= 1).
struct poseidon_sparse_matrix_t {
  std::vector<ff::fr_t> col0;  // t entries, X''[i][0]
  std::vector<ff::fr_t> row0;  // t - 1 entries, X''[0][j] for j = 1..t-1
};

struct poseidon_params_t {
  std::size_t arity = 0;
  std::size_t width = 0;  // t = arity + 1
  std::size_t full_rounds = 0;     // R_F (8 for every Filecoin arity)
  std::size_t partial_rounds = 0;  // R_P
  ff::fr_t domain_tag;             // state[0] = 2^arity - 1 (HashType::MerkleTree)

  // Unoptimized description: rc[round * t + i], round = 0..R_F+R_P-1; M row-major.
  std::vector<ff::fr_t> round_constants;
  std::vector<ff::fr_t> mds;
  std::vector<ff::fr_t> mds_inverse;

  // Optimized ("static") form used by both the native hash and the circuit;
  // the circuit's R1CS coefficients depend on these values bit for bit.
  std::vector<ff::fr_t> compressed_constants;  // R_F * t + R_P
  std::vector<ff::fr_t> pre_sparse;            // t * t, mixes after round R_F/2 - 1
  std::vector<poseidon_sparse_matrix_t> sparse;  // R_P, sparse[k] mixes after partial round k

  const ff::fr_t& mds_at(std::size_t i, std::size_t j) const { return mds[i * width + j]; }
  std::size_t total_rounds() const { return full_rounds + partial_rounds; }
};

// Parameters for arity 2, 4, 8 or 11 (the ones Filecoin uses; 4 only in test
// shapes). Built once on first use, thread-safe; throws std::invalid_argument
// for other arities.
const poseidon_params_t& poseidon_params(std::size_t arity);

// Arity 2 with SnapDeals' "gen randomness" domain tag
// (storage-proofs-update constants.rs HASH_TYPE_GEN_RANDOMNESS =
// HashType::Custom(CType::Arbitrary(1)): tag 1 * 2^40, neptune hash_type.rs);
// round constants and matrices are arity 2's (they do not depend on the
// hash type). phi, rho and the challenge digests use it.
const poseidon_params_t& poseidon_gen_randomness_params();

// (R_F, R_P) for width t, neptune's calc_round_numbers(t, security_margin = true).
std::pair<std::size_t, std::size_t> poseidon_round_numbers(std::size_t width);

// Builds the parameters for any arity >= 1 (no caching); poseidon_params()
// is the cached front end.
poseidon_params_t make_poseidon_params(std::size_t arity);

}  // namespace cuzk::gadgets
