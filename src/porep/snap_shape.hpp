#pragma once
// The public parameters of a SnapDeals (EmptySectorUpdate) proof, as
// rust-fil-proofs sets them (storage-proofs-update constants.rs, vanilla.rs
// PublicParams::from_sector_size):
//   partitions      1 up to 8 KiB, 2 up to 32 KiB, 4 up to 16 MiB, 16 above;
//   challenges      10 per partition up to 16 MiB, 86 above;
//   apex leaves     8 per partition up to 8 KiB, 128 above;
//   hs              the six allowed h (high bits of a challenge that select
//                   its rho): 1 (x6) up to 32 KiB, 7..12 above; h = hs[3];
//   Tree R          base arity 8 and the sub/top arities of
//                   validate_tree_r_shape (production sizes as PoRep's:
//                   2 KiB 8-0-0, 8 MiB 8-0-0, 512 MiB 8-0-0, 32 GiB 8-8-0,
//                   64 GiB 8-8-2; test sizes 1 KiB 8-4-0 … 32 KiB 8-8-2);
//   Tree D          binary SHA-256 over the new data (the deployed variant).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace cuzk::porep {

struct snap_shape_t {
  std::uint64_t sector_bytes = 0;
  std::uint64_t nodes = 0;
  unsigned challenge_bit_len = 0;  // log2(nodes), the height of Tree D
  unsigned partitions = 0;
  unsigned partition_bit_len = 0;
  unsigned challenges = 0;         // per partition
  unsigned apex_leaves = 0;        // per partition
  unsigned apex_leaf_bit_len = 0;
  unsigned base_arity = 8;
  unsigned sub_arity = 0;
  unsigned top_arity = 0;
  std::array<unsigned, 6> hs{};

  // The h every production proof uses (hs[3]: 10 at production sizes).
  unsigned h_default() const { return hs[3]; }
  // Tree R arities, leaf to root: the base levels, then sub, then top.
  std::vector<unsigned> tree_r_arities() const;
  unsigned tree_r_base_levels() const;
  // The Tree D row holding the apex leaves (levels above the leaves).
  unsigned apex_height() const { return challenge_bit_len - partition_bit_len - apex_leaf_bit_len; }
  // Random bits drawn per challenge; the partition index fills the rest.
  unsigned random_bits_per_challenge() const { return challenge_bit_len - partition_bit_len; }
  unsigned challenges_per_digest() const;  // 254 / random bits
  unsigned digests_per_partition() const;
  // The circuit's packed public input k | h_select << partition_bit_len,
  // h_select = 2^i for h = hs[i]. std::invalid_argument for k or h out of range.
  std::uint64_t k_and_h_select(unsigned k, unsigned h) const;
};

// Every size upstream allows (in nodes: 2^5, 2^6, 2^7, 2^8, 2^9, 2^10, 2^18,
// 2^19, 2^24, 2^30, 2^31); std::invalid_argument naming the size otherwise.
snap_shape_t snap_shape_for(std::uint64_t sector_bytes);

// The byte sizes of ALLOWED_SECTOR_SIZES, smallest first.
std::span<const std::uint64_t> snap_sector_sizes();

}  // namespace cuzk::porep
