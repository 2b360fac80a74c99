#include "porep/post_challenges.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "gadgets/sha256_native.hpp"
#include "ff/fr.hpp"

namespace cuzk::porep {

namespace {

std::array<std::uint8_t, 8> le64(std::uint64_t v) {
  std::array<std::uint8_t, 8> b;
  for (int i = 0; i < 8; ++i) b[i] = std::uint8_t(v >> (8 * i));
  return b;
}

std::uint64_t first_u64_le(const gadgets::sha256_digest_t& d) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(d[i]) << (8 * i);
  return v;
}

void require_canonical(const bytes32_t& b, const char* what) {
  if (!is_canonical_fr(b))
    throw std::invalid_argument(std::string(what) + " is not a canonical field element (little-endian, below r)");
}

}  // namespace

bool is_canonical_fr(const bytes32_t& b) { return ff::fr_t::from_bytes_le(b).has_value(); }

std::uint64_t post_challenge_index(api_version_t v, std::uint64_t sector_index, std::uint64_t challenges_per_sector,
                                   std::uint64_t n) {
  return v == api_version_t::v1_2 ? n : sector_index * challenges_per_sector + n;
}

std::uint64_t post_leaf_challenge(const bytes32_t& randomness, std::uint64_t sector_id, std::uint64_t challenge_index,
                                  std::uint64_t nodes) {
  if (nodes == 0) throw std::invalid_argument("post_leaf_challenge: a sector of 0 nodes");
  gadgets::sha256_ctx_t h;
  h.update(randomness);
  h.update(le64(sector_id));
  h.update(le64(challenge_index));
  return first_u64_le(h.finish()) % nodes;
}

std::vector<std::uint64_t> post_sector_challenges(const post_shape_t& shape, api_version_t v,
                                                  const bytes32_t& randomness, std::uint64_t sector_id,
                                                  std::uint64_t sector_index) {
  if (shape.kind == post_kind_t::winning && v == api_version_t::v1_2)
    throw std::invalid_argument("WinningPoSt under API 1.2: no registered proof has it, and upstream's prover and "
                                "verifier would derive different leaves");
  std::vector<std::uint64_t> out(shape.challenges_per_sector);
  for (unsigned n = 0; n < shape.challenges_per_sector; ++n)
    out[n] = post_leaf_challenge(randomness, sector_id,
                                 post_challenge_index(v, sector_index, shape.challenges_per_sector, n),
                                 shape.sector.nodes);
  return out;
}

std::map<std::uint64_t, std::vector<std::uint64_t>> fallback_sector_challenges(const post_shape_t& shape,
                                                                               api_version_t v,
                                                                               const bytes32_t& randomness,
                                                                               std::span<const std::uint64_t> sector_ids) {
  if (sector_ids.empty()) throw std::invalid_argument("fallback_sector_challenges: no sectors supplied");
  if (shape.sectors_per_partition == 0) throw std::invalid_argument("fallback_sector_challenges: empty shape");
  require_canonical(randomness, "randomness");
  // Upstream takes partitions = ceil(len / sectors_per_partition) for Window
  // (in f32, exact for any real sector count) and 1 for Winning, then the
  // first `partitions` chunks: for Window that is every sector.
  const std::size_t s = shape.sectors_per_partition;
  const std::size_t covered = shape.kind == post_kind_t::winning ? std::min(s, sector_ids.size()) : sector_ids.size();
  std::map<std::uint64_t, std::vector<std::uint64_t>> out;
  for (std::size_t j = 0; j < covered; ++j)
    out[sector_ids[j]] = post_sector_challenges(shape, v, randomness, sector_ids[j], j);
  return out;
}

std::uint64_t winning_sector_challenge(const bytes32_t& randomness, const bytes32_t& prover_id, std::uint64_t n,
                                       std::uint64_t sector_set_len) {
  if (sector_set_len == 0) throw std::invalid_argument("winning_sector_challenge: empty sector set is invalid");
  gadgets::sha256_ctx_t h;
  h.update(prover_id);
  h.update(randomness);
  h.update(le64(n));
  return first_u64_le(h.finish()) % sector_set_len;
}

std::vector<std::uint64_t> winning_sector_challenges(const bytes32_t& randomness, const bytes32_t& prover_id,
                                                     std::uint64_t sector_set_len, unsigned count) {
  if (sector_set_len == 0) throw std::invalid_argument("winning_sector_challenges: empty sector set is invalid");
  require_canonical(prover_id, "prover_id");
  require_canonical(randomness, "randomness");
  std::vector<std::uint64_t> out(count);
  for (unsigned n = 0; n < count; ++n) out[n] = winning_sector_challenge(randomness, prover_id, n, sector_set_len);
  return out;
}

}  // namespace cuzk::porep
