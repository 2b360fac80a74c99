#include "porep/stacked_graph_t.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include "gadgets/sha256_native.hpp"
#include "porep/chacha.hpp"

namespace cuzk::porep {

namespace {

gadgets::sha256_digest_t tagged_hash(std::string_view tag, const bytes32_t& porep_id) {
  gadgets::sha256_ctx_t ctx;
  ctx.update({reinterpret_cast<const std::uint8_t*>(tag.data()), tag.size()});
  ctx.update(porep_id);
  return ctx.finish();
}

std::array<std::uint64_t, 4> feistel_keys(const bytes32_t& porep_id) {
  auto d = tagged_hash("Filecoin_Feistel", porep_id);
  std::array<std::uint64_t, 4> k{};
  for (int i = 0; i < 4; ++i)
    for (int b = 7; b >= 0; --b) k[i] = k[i] << 8 | d[8 * i + b];
  return k;
}

}  // namespace

stacked_graph_t::stacked_graph_t(std::uint64_t nodes, const bytes32_t& porep_id, api_version_t version)
    : nodes_(nodes), version_(version), feistel_(nodes * expansion_degree, feistel_keys(porep_id)) {
  if (nodes < 2) throw std::invalid_argument("stacked_graph_t: need at least 2 nodes");
  auto d = tagged_hash("Filecoin_DRSample", porep_id);
  std::copy_n(d.begin(), 28, drg_seed_.begin());
}

drg_parents_t stacked_graph_t::drg_parents(std::uint64_t v) const {
  drg_parents_t out{};
  if (v < 2) return out;
  std::array<std::uint8_t, 32> seed;
  std::copy(drg_seed_.begin(), drg_seed_.end(), seed.begin());
  for (int i = 0; i < 4; ++i) seed[28 + i] = std::uint8_t(v >> (8 * i));  // u32 LE
  chacha8_rng_t rng(seed);
  // Bucket sampling (drgraph.rs BucketGraph::parents): m' = 5 sampled parents
  // plus the predecessor; meta-node index 5v, bucket sizes powers of two.
  constexpr std::uint64_t m_prime = drg_degree - 1;
  const std::uint64_t meta = m_prime * v;
  const auto n_buckets = std::uint64_t(std::ceil(std::log2(double(meta))));
  std::array<std::uint64_t, m_prime> sampled{};
  for (auto& s : sampled) {
    std::uint64_t bucket = rng.next_u64() % n_buckets + 1;
    std::uint64_t hi = std::min(meta, std::uint64_t(1) << bucket);
    std::uint64_t lo = std::max<std::uint64_t>(2, hi >> 1);
    std::uint64_t dist = lo + rng.next_u64() % (hi - lo + 1);
    std::uint64_t p = (meta - dist) / m_prime;
    s = p == v ? v - 1 : p;
  }
  if (version_ == api_version_t::v1_0) {
    std::copy(sampled.begin(), sampled.end(), out.begin());
    out[m_prime] = v - 1;
  } else {
    out[0] = v - 1;
    std::copy(sampled.begin(), sampled.end(), out.begin() + 1);
  }
  return out;
}

exp_parents_t stacked_graph_t::exp_parents(std::uint64_t v) const {
  exp_parents_t out{};
  for (unsigned i = 0; i < expansion_degree; ++i) {
    std::uint64_t x = feistel_.permute(v * expansion_degree + i);
    // V1_0 truncated the permuted value to u32 before dividing (graph.rs, legacy).
    if (version_ == api_version_t::v1_0) x = std::uint32_t(x);
    out[i] = x / expansion_degree;
  }
  return out;
}

}  // namespace cuzk::porep
