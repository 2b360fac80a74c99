#pragma once
// Validates every element of a vanilla proof, in an order that names the
// corrupted element rather than one that merely depends on it:
//   counts and shapes; replica_id (when its inputs are given); comm_r =
//   Poseidon_2(comm_c, comm_r_last); then per challenge: the challenge index
//   (§6), the 14 parent indices (§4), the Tree D path to comm_d, each parent
//   column's Tree C path to comm_c, every label of the challenged column
//   against SHA-256 of its parents' rows, the challenged column's Tree C path,
//   the encoding (replica leaf = last label + data leaf) and the Tree R path
//   to comm_r_last.
#include <optional>
#include <string>

#include "porep/vanilla_proof_t.hpp"

namespace cuzk::porep {

struct check_failure_t {
  std::string element;  // JSON path, e.g. "partitions[0].challenges[1].column.column[3]"
  std::string reason;
};

// nullopt when everything holds, else the first failure.
std::optional<check_failure_t> check_vanilla(const vanilla_proof_t& proof);

}  // namespace cuzk::porep
