#pragma once
// SnapDeals (EmptySectorUpdate) natively: the randomness, the challenges, a
// sector model that yields vanilla partition proofs, and their checker
// (rust-fil-proofs storage-proofs-update vanilla.rs, challenges.rs).
//
//   phi = Poseidon_gen(comm_d_new, comm_r_old)
//   rho(c) = Poseidon_gen(phi, c >> (challenge_bit_len - h))
//   new replica node = old replica node + data node * rho(node index)
//   comm_r_old = Poseidon_2(comm_c, root_r_old), comm_r_new likewise
// Poseidon_gen is arity 2 with the "gen randomness" domain tag
// (gadgets::poseidon_gen_randomness_params); Poseidon_2 the Merkle one.
// Challenge digest j of partition k: Poseidon_gen(comm_r_new, k *
// digests_per_partition + j), each digest's little-endian bits cut into
// challenges_per_digest chunks of random_bits_per_challenge bits, the
// partition index appended above them.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "porep/snap_proof_t.hpp"
#include "porep/snap_shape.hpp"
#include "porep/vanilla_checker.hpp"

namespace cuzk::porep {

ff::fr_t snap_phi(const ff::fr_t& comm_d_new, const ff::fr_t& comm_r_old);
ff::fr_t snap_rho(const ff::fr_t& phi, std::uint32_t high);
// Challenges::new(sector_nodes, comm_r_new, k), all challenges of partition k.
std::vector<std::uint32_t> snap_challenges(const snap_shape_t& shape, const ff::fr_t& comm_r_new, unsigned k);

// How a snap_sector_t fills its sector.
enum class snap_sector_model_t {
  // Every node of the old replica and of the data drawn from the seed; all
  // three trees held whole (sizes up to 512 MiB).
  random,
  // The old replica repeats one block of snap_block_nodes(shape) nodes drawn
  // from the seed; the data fills the first block, drawn from the seed, and
  // is zero after it (a sector whose deals fill its first 8 MiB). Only two
  // blocks per tree are hashed (porep::block_merkle_tree_t), so any size
  // works: a 32 GiB update takes about a second. Its proofs are as valid as
  // any; the circuit's cost does not depend on the data.
  repeated_blocks,
};

// The block of the repeated-block model: 8^m nodes, m the largest of at most
// 6 (2^18 nodes, 8 MiB) that is below the Tree R base levels' count (so a
// sector holds at least 8 blocks). Throws std::invalid_argument for a shape
// whose base tree is one 8-ary level.
std::uint64_t snap_block_nodes(const snap_shape_t& shape);

// A sector that was sealed (old replica, comm_c) and then updated with new
// data, filled as `model` says. Deterministic in `seed`: the old replica,
// comm_c and the new data are seeded; the data nodes are below 2^254 as
// fr32-padded data is. Throws std::invalid_argument for the random model
// past 512 MiB.
class snap_sector_t {
 public:
  snap_sector_t(const snap_shape_t& shape, std::uint64_t seed, std::optional<unsigned> h = std::nullopt,
                snap_sector_model_t model = snap_sector_model_t::random);
  ~snap_sector_t();
  snap_sector_t(snap_sector_t&&) noexcept;
  snap_sector_t& operator=(snap_sector_t&&) noexcept;

  const snap_shape_t& shape() const { return shape_; }
  // Public inputs of partition k (k, the three commitments, h).
  snap_public_t public_inputs(unsigned k) const;
  // The vanilla proof of partition k (prove_inner).
  snap_partition_proof_t partition_proof(unsigned k) const;

 private:
  struct trees_t;
  snap_shape_t shape_;
  unsigned h_ = 0;
  std::unique_ptr<trees_t> t_;
};

// Upstream's verify, in an order that names the corrupted element
// ("challenge_proofs[3].proof_r_new.path[2][5]", as serde names the fields):
// counts and path shapes; the roots the Tree R openings state (all equal,
// and comm_r_old / comm_r_new = Poseidon_2(comm_c, root)); then per
// challenge its three leaf indices against the derived challenge, each path
// against its root, the encoding, the Tree D path against the apex leaves;
// finally the apex tree with the partition path to comm_d_new. nullopt when
// everything holds.
// The counts and path shapes alone (what the circuit needs before it
// synthesizes): apex leaves, challenges, each opening's levels, siblings and
// leaf index range. nullopt when they fit.
std::optional<check_failure_t> check_snap_shape(const snap_shape_t& shape, const snap_partition_proof_t& proof);

std::optional<check_failure_t> check_snap_partition(const snap_shape_t& shape, const snap_public_t& pub,
                                                    const snap_partition_proof_t& proof);

}  // namespace cuzk::porep
