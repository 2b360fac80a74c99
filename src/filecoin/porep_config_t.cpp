#include "filecoin/porep_config_t.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {

constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;
constexpr unsigned max_challenges_per_partition = 18;  // constants.rs MAX_CHALLENGES_PER_PARTITION

// Production sizes 32/64 GiB versus the test sizes (constants.rs lists both).
bool is_production(std::uint64_t b) {
  switch (b) {
    case 2 * kib: case 4 * kib: case 16 * kib: case 32 * kib:
    case 8 * mib: case 16 * mib: case 512 * mib: case 1 * gib: return false;
    case 32 * gib: case 64 * gib: return true;
  }
  throw std::invalid_argument("sector size " + std::to_string(b) + " bytes is not one rust-fil-proofs knows");
}

}  // namespace

porep_config_t porep_config_t::standard(std::uint64_t sector_bytes, porep::api_version_t v, porep::porep_feature_t f,
                                        const porep::bytes32_t& porep_id) {
  const bool prod = is_production(sector_bytes);
  if (f != porep::porep_feature_t::none && v == porep::api_version_t::v1_0)
    throw std::invalid_argument("api version 1.0 has no PoRep features");
  porep_config_t c;
  c.sector_bytes = sector_bytes;
  c.porep_id = porep_id;
  c.api_version = v;
  c.feature = f;
  if (f == porep::porep_feature_t::non_interactive) c.partitions = prod ? 126 : 13;
  else c.partitions = prod ? 10 : 1;
  return c;
}

porep_config_t porep_config_t::of(const registered_seal_proof_t& proof) {
  porep::bytes32_t id{};
  for (int i = 0; i < 8; ++i) id[i] = std::uint8_t(proof.id >> (8 * i));
  return standard(proof.sector_bytes, proof.api_version(), proof.feature(), id);
}

unsigned porep_config_t::minimum_challenges() const {
  const bool prod = is_production(sector_bytes);
  if (feature == porep::porep_feature_t::non_interactive) return prod ? 2253 : 26;
  return prod ? 176 : 2;
}

unsigned porep_config_t::challenges_per_partition() const {
  if (partitions == 0) throw std::invalid_argument("porep config: zero partitions");
  const unsigned n = (minimum_challenges() + partitions - 1) / partitions;
  if (n > max_challenges_per_partition)
    throw std::invalid_argument("porep config: " + std::to_string(partitions) + " partitions give " +
                                std::to_string(n) + " challenges per partition, above the circuit's 18");
  return n;
}

porep::challenge_shape_t porep_config_t::challenge_shape() const {
  return {nodes(), partitions, challenges_per_partition(), feature};
}

}  // namespace cuzk::filecoin
