#pragma once
// What one challenge block of the partition circuit reads from the vanilla
// proof (FILECOIN_POREP.md §8 "Witness sources", §10). Path indices are not
// stored: they are the bits of the leaf index (the node number), which is how
// the public inputs pack them.
#include <array>
#include <cstdint>
#include <vector>

#include "circuits/porep_parent_opening_t.hpp"
#include "ff/fr.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::circuits {

struct porep_challenge_witness_t {
  std::uint64_t challenge = 0;         // node index, in [1, nodes)
  ff::fr_t data_leaf;                  // comm_d_proofs.leaf
  std::vector<ff::fr_t> d_siblings;    // Tree D, one per binary level, leaf to root
  std::vector<ff::fr_t> r_siblings;    // Tree R path of the replica node
  std::vector<ff::fr_t> c_siblings;    // Tree C path of the challenged column (c_x)
  std::array<porep_parent_opening_t, porep::drg_degree> drg_parents;
  std::array<porep_parent_opening_t, porep::expansion_degree> exp_parents;
};

}  // namespace cuzk::circuits
