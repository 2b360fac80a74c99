#pragma once
// The C1 readers' shared steps (c1_json.cpp; used by the JSON and bincode
// readers): one challenge's Proof, given as a DOM in the JSON's shape with
// every [u8; 32] as a 32-byte binary value, checked within itself; then the
// whole-file checks once every challenge and the top-level values are in.
#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "filecoin/c1_output_t.hpp"

namespace cuzk::filecoin::detail {

// What the model does not keep but the C1 states: roots (checked against the
// shared commitments once the whole file is read) and column leaves (checked
// last, against Poseidon of the rows).
struct redundant_t {
  ff::fr_t comm_d_root, comm_r_last_root;
  std::array<ff::fr_t, 1 + porep::total_parents> column_roots, column_leaves;  // c_x, 6 DRG, 8 expander
};

// `cw` is the challenge's path for errors ("vanilla_proofs.StackedDrg2KiBV1[0][1]").
porep::challenge_proof_t read_challenge(const nlohmann::json& challenge, const std::string& cw,
                                        const porep::sector_params_t& p, redundant_t& red);

// out.proof and out.vanilla.params set; parts[k][i] and reds[k][i] from
// read_challenge (counts already checked); root holds comm_r, comm_d,
// replica_id, seed, ticket as 32-byte binaries; vw = the partitions' path.
c1_output_t finish_c1(c1_output_t out, std::vector<std::vector<porep::challenge_proof_t>>& parts,
                      const std::vector<std::vector<redundant_t>>& reds, const nlohmann::json& root,
                      const std::string& vw);

}  // namespace cuzk::filecoin::detail
