#include "porep/synthetic_challenges.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>

#include "porep/blake2b.hpp"
#include "porep/chacha20_stream_t.hpp"
#include "porep/challenges.hpp"
#include "porep/domain.hpp"

namespace cuzk::porep {

namespace {

constexpr std::array<std::uint8_t, 12> nonce = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
constexpr std::uint64_t challenge_bytes = 32;  // SYNTH_CHALLENGE_SIZE
constexpr std::uint64_t index_bytes = 4;       // SYNTH_INDEX_SIZE

// ChaCha20 keyed by BLAKE2b-256(key = tag)(a ‖ b).
chacha20_stream_t keyed_stream(std::string_view tag, const bytes32_t& a, const bytes32_t& b) {
  std::array<std::uint8_t, 64> msg;
  std::copy(a.begin(), a.end(), msg.begin());
  std::copy(b.begin(), b.end(), msg.begin() + 32);
  std::array<std::uint8_t, 32> key;
  blake2b(key, msg, std::span(reinterpret_cast<const std::uint8_t*>(tag.data()), tag.size()));
  return chacha20_stream_t(key, nonce);
}

}  // namespace

synth_challenge_generator_t::synth_challenge_generator_t(std::uint64_t nodes, const ff::fr_t& replica_id,
                                                         const ff::fr_t& comm_r)
    : synth_challenge_generator_t(nodes, replica_id, comm_r, std::min(nodes, default_count)) {}

synth_challenge_generator_t::synth_challenge_generator_t(std::uint64_t nodes, const ff::fr_t& replica_id,
                                                         const ff::fr_t& comm_r, std::uint64_t count)
    : nodes_(nodes), replica_id_(to_le_bytes(replica_id)), comm_r_(to_le_bytes(comm_r)), count_(count) {
  if (nodes < 2) throw std::invalid_argument("synthetic challenges: need at least 2 nodes");
  if (count == 0 || count >= (std::uint64_t(1) << 32))
    throw std::invalid_argument("synthetic challenges: count must be in [1, 2^32)");
}

std::uint64_t synth_challenge_generator_t::synth_challenge(std::uint64_t i) const {
  if (i >= count_)
    throw std::out_of_range("synthetic challenge " + std::to_string(i) + " of " + std::to_string(count_));
  auto s = keyed_stream("filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id_, comm_r_);
  s.seek(i * challenge_bytes);
  std::array<std::uint8_t, challenge_bytes> r;
  s.read(r);
  return challenge_from_digest(r, nodes_);
}

std::vector<std::uint64_t> synth_challenge_generator_t::partition_synth_indexes(unsigned n, const bytes32_t& seed,
                                                                                unsigned k) const {
  auto s = keyed_stream("filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id_, seed);
  s.seek(std::uint64_t(k) * n * index_bytes);
  std::vector<std::uint64_t> out(n);
  for (auto& idx : out) {
    std::array<std::uint8_t, index_bytes> b;
    s.read(b);
    const std::uint32_t v = std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 |
                            std::uint32_t(b[3]) << 24;
    idx = v % count_;
  }
  return out;
}

std::vector<std::uint64_t> synth_challenge_generator_t::partition_challenges(unsigned n, const bytes32_t& seed,
                                                                             unsigned k) const {
  auto out = partition_synth_indexes(n, seed, k);
  for (auto& c : out) c = synth_challenge(c);
  return out;
}

}  // namespace cuzk::porep
