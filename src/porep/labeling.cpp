#include "porep/labeling.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "gadgets/sha256_native.hpp"
#include "porep/domain.hpp"

namespace cuzk::porep {

namespace {

void put_header(std::uint8_t* buf, const ff::fr_t& replica_id, unsigned layer, std::uint64_t node) {
  auto id = to_le_bytes(replica_id);
  std::memcpy(buf, id.data(), 32);
  for (int i = 0; i < 4; ++i) buf[32 + i] = std::uint8_t(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) buf[36 + i] = std::uint8_t(node >> (56 - 8 * i));
  std::memset(buf + 44, 0, 20);
}

}  // namespace

ff::fr_t compute_label(const ff::fr_t& replica_id, unsigned layer, std::uint64_t node,
                       std::span<const ff::fr_t> parent_labels) {
  std::array<std::uint8_t, 64 + label_parent_slots * 32> buf;
  put_header(buf.data(), replica_id, layer, node);
  if (node == 0) return fr_from_trimmed(gadgets::sha256(std::span(buf.data(), 64)));
  const std::size_t want = layer == 1 ? drg_degree : total_parents;
  if (layer == 0 || parent_labels.size() != want)
    throw std::invalid_argument("compute_label: layer " + std::to_string(layer) + " takes " + std::to_string(want) +
                                " parent labels, got " + std::to_string(parent_labels.size()));
  for (unsigned s = 0; s < label_parent_slots; ++s)
    parent_labels[s % want].to_bytes_le(std::span(buf.data() + 64 + 32 * s, 32));
  return fr_from_trimmed(gadgets::sha256(buf));
}

std::vector<std::vector<ff::fr_t>> label_all_layers(const stacked_graph_t& graph, const ff::fr_t& replica_id,
                                                    unsigned layers) {
  const std::uint64_t n = graph.nodes();
  // Parents are the same in every layer; computing them once saves the
  // ChaCha8/BLAKE2b work of layers 2..L.
  std::vector<std::array<std::uint64_t, total_parents>> parents(n);
  for (std::uint64_t v = 0; v < n; ++v) {
    auto d = graph.drg_parents(v);
    auto e = graph.exp_parents(v);
    std::copy(d.begin(), d.end(), parents[v].begin());
    std::copy(e.begin(), e.end(), parents[v].begin() + drg_degree);
  }
  std::vector<std::vector<ff::fr_t>> labels(layers, std::vector<ff::fr_t>(n));
  std::array<ff::fr_t, total_parents> p;
  for (unsigned layer = 1; layer <= layers; ++layer) {
    auto& cur = labels[layer - 1];
    const std::size_t np = layer == 1 ? drg_degree : total_parents;
    for (std::uint64_t v = 0; v < n; ++v) {
      if (v > 0) {
        for (unsigned i = 0; i < drg_degree; ++i) p[i] = cur[parents[v][i]];
        for (unsigned i = drg_degree; i < np; ++i) p[i] = labels[layer - 2][parents[v][i]];
      }
      cur[v] = compute_label(replica_id, layer, v, std::span(p.data(), np));
    }
  }
  return labels;
}

ff::fr_t compute_replica_id(const bytes32_t& prover_id, std::uint64_t sector_id, const bytes32_t& ticket,
                            const ff::fr_t& comm_d, const bytes32_t& porep_id) {
  gadgets::sha256_ctx_t ctx;
  ctx.update(prover_id);
  std::array<std::uint8_t, 8> sid;
  for (int i = 0; i < 8; ++i) sid[i] = std::uint8_t(sector_id >> (56 - 8 * i));
  ctx.update(sid);
  ctx.update(ticket);
  ctx.update(to_le_bytes(comm_d));
  ctx.update(porep_id);
  return fr_from_trimmed(ctx.finish());
}

std::uint64_t derive_challenge(const ff::fr_t& replica_id, const bytes32_t& seed, std::uint32_t j,
                               std::uint64_t nodes) {
  std::array<std::uint8_t, 68> buf;
  auto id = to_le_bytes(replica_id);
  std::memcpy(buf.data(), id.data(), 32);
  std::memcpy(buf.data() + 32, seed.data(), 32);
  for (int i = 0; i < 4; ++i) buf[64 + i] = std::uint8_t(j >> (8 * i));
  // The whole digest (not trimmed) as a little-endian integer.
  return challenge_from_digest(gadgets::sha256(buf), nodes);
}

std::vector<std::uint64_t> partition_challenges(const sector_params_t& p, const ff::fr_t& replica_id,
                                                const bytes32_t& seed, unsigned k) {
  if (p.feature != porep_feature_t::none)
    throw std::invalid_argument(std::string(to_string(p.feature)) +
                                " challenges depend on comm_r: use partition_challenges(p, replica_id, comm_r, "
                                "seed, k)");
  return partition_challenges(p, replica_id, ff::fr_t::zero(), seed, k);
}

}  // namespace cuzk::porep
