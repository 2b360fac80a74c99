#pragma once
// The challenges of one partition (one Groth16 circuit), in challenge order.
#include <vector>

#include "porep/challenge_proof_t.hpp"

namespace cuzk::porep {

struct partition_proof_t {
  unsigned index = 0;  // k: challenge j = challenges_per_partition·k + i
  std::vector<challenge_proof_t> challenges;
};

}  // namespace cuzk::porep
