#include "circuits/porep_vanilla_witness.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::circuits {
namespace {

std::vector<ff::fr_t> flatten(const porep::merkle_path_t& path) {
  std::vector<ff::fr_t> out;
  for (const auto& level : path.siblings) out.insert(out.end(), level.begin(), level.end());
  return out;
}

porep_parent_opening_t opening(const porep::column_opening_t& c) { return {c.node, c.rows, flatten(c.tree_c)}; }

}  // namespace

std::shared_ptr<const porep_partition_witness_t> porep_witness_from_vanilla(const porep::vanilla_proof_t& proof,
                                                                           unsigned partition) {
  if (partition >= proof.partitions.size()) {
    throw std::invalid_argument("porep vanilla proof: partition " + std::to_string(partition) + " of " +
                                std::to_string(proof.partitions.size()));
  }
  auto w = std::make_shared<porep_partition_witness_t>();
  w->replica_id = proof.replica_id;
  w->comm_d = proof.comm_d;
  w->comm_r = proof.comm_r;
  w->comm_c = proof.comm_c;
  w->comm_r_last = proof.comm_r_last;
  for (const auto& c : proof.partitions[partition].challenges) {
    porep_challenge_witness_t cw;
    cw.challenge = c.node;
    cw.data_leaf = c.data_leaf;
    cw.d_siblings = flatten(c.tree_d);
    cw.r_siblings = flatten(c.tree_r);
    cw.c_siblings = flatten(c.column.tree_c);
    for (size_t i = 0; i < c.drg_parents.size(); ++i) cw.drg_parents[i] = opening(c.drg_parents[i]);
    for (size_t i = 0; i < c.exp_parents.size(); ++i) cw.exp_parents[i] = opening(c.exp_parents[i]);
    w->challenges.push_back(std::move(cw));
  }
  return w;
}

}  // namespace cuzk::circuits
