#pragma once
// The keyed Feistel permutation behind the expander parents
// (rust-fil-proofs storage-proofs-core crypto/feistel.rs; FILECOIN_POREP.md §4).
// Domain: the smallest power of 4 that holds n; values >= n are cycle-walked.
#include <array>
#include <cstdint>

namespace cuzk::porep {

class feistel_t {
 public:
  // keys: the 4 u64 LE words of SHA-256("Filecoin_Feistel" ‖ porep_id); only the first 3 are used.
  feistel_t(std::uint64_t n, const std::array<std::uint64_t, 4>& keys);
  // A permutation of [0, n).
  std::uint64_t permute(std::uint64_t x) const;

 private:
  std::uint64_t encode(std::uint64_t x) const;
  std::uint64_t round_function(std::uint64_t right, std::uint64_t key) const;
  std::uint64_t n_;
  std::array<std::uint64_t, 4> keys_;
  unsigned half_bits_ = 1;
  std::uint64_t right_mask_ = 0, left_mask_ = 0;
};

}  // namespace cuzk::porep
