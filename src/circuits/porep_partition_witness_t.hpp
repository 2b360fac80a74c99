#pragma once
// The whole witness of one partition proof: the public commitments, the two
// tree roots behind comm_r, and one block per challenge of this partition.
// comm_c and comm_r_last are private; comm_r = Poseidon_2(comm_c, comm_r_last).
#include <vector>

#include "circuits/porep_challenge_witness_t.hpp"
#include "ff/fr.hpp"

namespace cuzk::circuits {

struct porep_partition_witness_t {
  ff::fr_t replica_id, comm_d, comm_r, comm_c, comm_r_last;
  std::vector<porep_challenge_witness_t> challenges;
};

}  // namespace cuzk::circuits
