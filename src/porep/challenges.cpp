#include "porep/challenges.hpp"

#include <array>
#include <cstring>
#include <stdexcept>
#include <string>

#include "gadgets/sha256_native.hpp"
#include "porep/domain.hpp"
#include "porep/labeling.hpp"
#include "porep/synthetic_challenges.hpp"

namespace cuzk::porep {

std::uint64_t challenge_from_digest(std::span<const std::uint8_t, 32> le, std::uint64_t nodes) {
  if (nodes < 2) throw std::invalid_argument("challenges: need at least 2 nodes");
  // Horner from the most significant byte, reducing as we go: the 256-bit
  // integer never needs to exist.
  const std::uint64_t m = nodes - 1;
  unsigned __int128 r = 0;
  for (int i = 31; i >= 0; --i) r = ((r << 8) | le[i]) % m;
  return std::uint64_t(r) + 1;
}

std::uint64_t derive_ni_challenge(const ff::fr_t& replica_id, const ff::fr_t& comm_r, std::uint32_t j,
                                  std::uint64_t nodes) {
  static constexpr char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
  gadgets::sha256_ctx_t ctx;
  ctx.update({reinterpret_cast<const std::uint8_t*>(tag), sizeof tag - 1});
  ctx.update(to_le_bytes(replica_id));
  ctx.update(to_le_bytes(comm_r));
  std::array<std::uint8_t, 4> jb;
  for (int i = 0; i < 4; ++i) jb[i] = std::uint8_t(j >> (8 * i));
  ctx.update(jb);
  const auto d = ctx.finish();
  return challenge_from_digest(d, nodes);
}

challenge_shape_t challenge_shape(const sector_params_t& p) {
  return {p.nodes, p.partitions, p.challenges_per_partition, p.feature};
}

std::vector<std::uint64_t> partition_challenges(const challenge_shape_t& shape, const ff::fr_t& replica_id,
                                                const ff::fr_t& comm_r, const bytes32_t& seed, unsigned k) {
  if (shape.nodes < 2 || shape.challenges_per_partition == 0)
    throw std::invalid_argument("challenges: empty challenge shape");
  // Upstream passes the partition as u8; beyond 256 partitions j would wrap.
  if (k >= shape.partitions || shape.partitions > 256)
    throw std::invalid_argument("challenges: partition " + std::to_string(k) + " of " +
                                std::to_string(shape.partitions));
  const unsigned n = shape.challenges_per_partition;
  std::vector<std::uint64_t> out(n);
  switch (shape.feature) {
    case porep_feature_t::none:
      for (unsigned i = 0; i < n; ++i) out[i] = derive_challenge(replica_id, seed, std::uint32_t(n * k + i), shape.nodes);
      break;
    case porep_feature_t::synthetic:
      out = synth_challenge_generator_t(shape.nodes, replica_id, comm_r).partition_challenges(n, seed, k);
      break;
    case porep_feature_t::non_interactive:
      for (unsigned i = 0; i < n; ++i)
        out[i] = derive_ni_challenge(replica_id, comm_r, std::uint32_t(n * k + i), shape.nodes);
      break;
  }
  return out;
}

std::vector<std::uint64_t> partition_challenges(const sector_params_t& p, const ff::fr_t& replica_id,
                                                const ff::fr_t& comm_r, const bytes32_t& seed, unsigned k) {
  return partition_challenges(challenge_shape(p), replica_id, comm_r, seed, k);
}

}  // namespace cuzk::porep
