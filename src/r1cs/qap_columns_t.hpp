#pragma once
// What a Groth16 setup needs of a circuit's matrices: each variable's column
// of A, B and C evaluated at tau, a[j] = sum over rows i of A[i][j] * L_i(tau)
// with L_i the Lagrange basis of the evaluation domain. Variables are numbered
// as in column_matrix: inputs first (ONE at 0), then aux.
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::r1cs {

struct qap_columns_t {
  std::vector<ff::fr_t> a, b, c;

  bool operator==(const qap_columns_t&) const = default;
};

}  // namespace cuzk::r1cs
