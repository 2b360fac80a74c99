#pragma once
// Synthetic PoRep challenges (rust-fil-proofs storage-proofs-porep
// stacked/vanilla/challenges.rs, module `synthetic`, SynthChallengeGenerator).
//
// The sealer commits to a set of N = min(nodes, 2^18) "synthetic" challenges
// before the seed exists; the seed then selects the PoRep challenges out of
// that set, so only those N columns need to be kept after PC2.
//   synthetic challenge i: bytes [32i, 32i+32) of ChaCha20(key_gen, "synth-porep\0"),
//     read as a LE integer, mod (nodes-1), + 1;
//     key_gen = BLAKE2b-256 keyed "filecoin.io|PoRep|1|Synthetic|1|Generation" of replica_id ‖ comm_r.
//   PoRep challenge j (= n·k + i of partition k): synthetic challenge number
//     u32_LE(bytes [4j, 4j+4) of ChaCha20(key_sel, "synth-porep\0")) mod N;
//     key_sel = BLAKE2b-256 keyed "filecoin.io|PoRep|1|Synthetic|1|Selection" of replica_id ‖ seed.
// replica_id and comm_r enter as their 32-byte LE field representations.
#include <cstdint>
#include <vector>

#include "ff/fr.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::porep {

class synth_challenge_generator_t {
 public:
  static constexpr std::uint64_t default_count = std::uint64_t(1) << 18;  // DEFAULT_SYNTH_CHALLENGE_COUNT

  // count = min(nodes, 2^18) as upstream's `default`; an explicit count is for
  // upstream's hard-coded test vector. Throws std::invalid_argument when nodes
  // < 2 or count is 0 or >= 2^32.
  synth_challenge_generator_t(std::uint64_t nodes, const ff::fr_t& replica_id, const ff::fr_t& comm_r);
  synth_challenge_generator_t(std::uint64_t nodes, const ff::fr_t& replica_id, const ff::fr_t& comm_r,
                              std::uint64_t count);

  std::uint64_t count() const { return count_; }
  // Synthetic challenge i < count(), in [1, nodes-1].
  std::uint64_t synth_challenge(std::uint64_t i) const;
  // The synthetic-set indices of partition k's n PoRep challenges.
  std::vector<std::uint64_t> partition_synth_indexes(unsigned n, const bytes32_t& seed, unsigned k) const;
  // Partition k's n PoRep challenges (gen_porep_partition_challenges).
  std::vector<std::uint64_t> partition_challenges(unsigned n, const bytes32_t& seed, unsigned k) const;

 private:
  std::uint64_t nodes_;
  bytes32_t replica_id_, comm_r_;
  std::uint64_t count_;
};

}  // namespace cuzk::porep
