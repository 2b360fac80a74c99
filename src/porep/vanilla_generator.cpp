#include "porep/vanilla_generator.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "gadgets/poseidon_native.hpp"
#include "gadgets/sha256_native.hpp"
#include "porep/challenges.hpp"
#include "porep/domain.hpp"
#include "porep/labeling.hpp"
#include "porep/merkle.hpp"
#include "porep/stacked_graph_t.hpp"

namespace cuzk::porep {

namespace {

// Seeded pseudo-random 32 bytes: SHA-256(seed u64 LE ‖ tag ‖ a u64 LE ‖ b u64 LE).
gadgets::sha256_digest_t prf(std::uint64_t seed, std::string_view tag, std::uint64_t a = 0, std::uint64_t b = 0) {
  std::array<std::uint8_t, 64> buf{};
  for (int i = 0; i < 8; ++i) {
    buf[i] = std::uint8_t(seed >> (8 * i));
    buf[48 + i] = std::uint8_t(a >> (8 * i));
    buf[56 + i] = std::uint8_t(b >> (8 * i));
  }
  for (std::size_t i = 0; i < tag.size() && i < 40; ++i) buf[8 + i] = std::uint8_t(tag[i]);
  return gadgets::sha256(buf);
}

ff::fr_t prf_fr(std::uint64_t seed, std::string_view tag, std::uint64_t a = 0, std::uint64_t b = 0) {
  return fr_from_trimmed(prf(seed, tag, a, b));
}

bytes32_t prf_bytes(std::uint64_t seed, std::string_view tag) { return prf(seed, tag); }

// Assembles one challenge's openings from a sector "view" (full or sparse),
// which provides label(layer, node), data(node) and the three tree paths.
template <class View>
challenge_proof_t open_challenge(const View& s, const stacked_graph_t& g, unsigned layers, std::uint64_t node) {
  auto column = [&](std::uint64_t v) {
    column_opening_t c;
    c.node = v;
    for (unsigned l = 1; l <= layers; ++l) c.rows.push_back(s.label(l, v));
    c.tree_c = s.path_c(v);
    return c;
  };
  challenge_proof_t c;
  c.node = node;
  c.data_leaf = s.data(node);
  c.tree_d = s.path_d(node);
  auto drg = g.drg_parents(node);
  auto exp = g.exp_parents(node);
  for (unsigned i = 0; i < drg_degree; ++i) c.drg_parents[i] = column(drg[i]);
  for (unsigned i = 0; i < expansion_degree; ++i) c.exp_parents[i] = column(exp[i]);
  c.column = column(node);
  c.replica_leaf = s.label(layers, node) + c.data_leaf;
  c.tree_r = s.path_r(node);
  return c;
}

template <class View>
void fill_partitions(vanilla_proof_t& out, const View& s, const stacked_graph_t& g) {
  const auto& p = out.params;
  for (unsigned k = 0; k < p.partitions; ++k) {
    partition_proof_t part;
    part.index = k;
    // comm_r is known here (replicated model): synthetic challenges hang on it.
    for (auto node : partition_challenges(p, out.replica_id, out.comm_r, out.seed, k))
      part.challenges.push_back(open_challenge(s, g, p.layers, node));
    out.partitions.push_back(std::move(part));
  }
}

struct full_view_t {
  const std::vector<std::vector<ff::fr_t>>& labels;
  const std::vector<ff::fr_t>& data_nodes;
  const merkle_tree_t &tree_d, &tree_c, &tree_r;
  ff::fr_t label(unsigned layer, std::uint64_t v) const { return labels[layer - 1][v]; }
  ff::fr_t data(std::uint64_t v) const { return data_nodes[v]; }
  merkle_path_t path_d(std::uint64_t v) const { return tree_d.path(v); }
  merkle_path_t path_c(std::uint64_t v) const { return tree_c.path(v); }
  merkle_path_t path_r(std::uint64_t v) const { return tree_r.path(v); }
};

// Labels of a sparse sector: challenged nodes get real labels from their
// parents (recursively, memoized: DRG parents are earlier nodes of the same
// layer and expander parents sit one layer down, so the recursion ends);
// every other node gets a seeded random label.
class sparse_labels_t {
 public:
  sparse_labels_t(const stacked_graph_t& g, const ff::fr_t& replica_id, std::uint64_t seed,
                  const std::set<std::uint64_t>& challenged)
      : g_(g), replica_id_(replica_id), seed_(seed), challenged_(challenged) {}

  ff::fr_t operator()(unsigned layer, std::uint64_t v) const {
    if (!challenged_.count(v)) return prf_fr(seed_, "label", layer, v);
    auto key = std::make_pair(layer, v);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    std::vector<ff::fr_t> parents;
    for (auto d : g_.drg_parents(v)) parents.push_back((*this)(layer, d));
    if (layer > 1)
      for (auto e : g_.exp_parents(v)) parents.push_back((*this)(layer - 1, e));
    ff::fr_t l = compute_label(replica_id_, layer, v, parents);
    memo_.emplace(key, l);
    return l;
  }

 private:
  const stacked_graph_t& g_;
  ff::fr_t replica_id_;
  std::uint64_t seed_;
  const std::set<std::uint64_t>& challenged_;
  mutable std::map<std::pair<unsigned, std::uint64_t>, ff::fr_t> memo_;
};

struct sparse_view_t {
  const sparse_labels_t& labels;
  std::uint64_t seed;
  const sparse_merkle_tree_t &tree_d, &tree_c, &tree_r;
  ff::fr_t label(unsigned layer, std::uint64_t v) const { return labels(layer, v); }
  ff::fr_t data(std::uint64_t v) const { return prf_fr(seed, "data", v); }
  merkle_path_t path_d(std::uint64_t v) const { return tree_d.path(v); }
  merkle_path_t path_c(std::uint64_t v) const { return tree_c.path(v); }
  merkle_path_t path_r(std::uint64_t v) const { return tree_r.path(v); }
};

void set_comm_r(vanilla_proof_t& out) {
  std::array<ff::fr_t, 2> in{out.comm_c, out.comm_r_last};
  out.comm_r = gadgets::poseidon_hash(in);
}

}  // namespace

vanilla_proof_t generate_replicated(const sector_params_t& p, std::uint64_t seed, const replica_inputs_t& inputs) {
  if (p.nodes > (std::uint64_t(1) << 24))
    throw std::invalid_argument("generate_replicated: sectors above 512 MiB need the sparse model");
  vanilla_proof_t out;
  out.params = p;
  out.model = "replicated";
  std::vector<ff::fr_t> data(p.nodes);
  for (std::uint64_t v = 0; v < p.nodes; ++v) data[v] = prf_fr(seed, "data", v);
  merkle_tree_t tree_d(tree_hash_t::sha256, p.tree_d_arities(), data);
  out.comm_d = tree_d.root();
  replica_id_inputs_t ri{inputs.prover_id.value_or(prf_bytes(seed, "prover_id")), inputs.sector_id.value_or(seed),
                         prf_bytes(seed, "ticket")};
  out.replica_id = compute_replica_id(ri.prover_id, ri.sector_id, ri.ticket, out.comm_d, p.porep_id());
  out.replica_id_inputs = ri;
  out.seed = prf_bytes(seed, "seed");

  stacked_graph_t g(p);
  auto labels = label_all_layers(g, out.replica_id, p.layers);
  std::vector<ff::fr_t> cols(p.nodes), replica(p.nodes);
  std::vector<ff::fr_t> rows(p.layers);
  for (std::uint64_t v = 0; v < p.nodes; ++v) {
    for (unsigned l = 0; l < p.layers; ++l) rows[l] = labels[l][v];
    cols[v] = hash_column(rows);
    replica[v] = labels[p.layers - 1][v] + data[v];
  }
  merkle_tree_t tree_c(tree_hash_t::poseidon, p.tree_cr_arities(), std::move(cols));
  merkle_tree_t tree_r(tree_hash_t::poseidon, p.tree_cr_arities(), std::move(replica));
  out.comm_c = tree_c.root();
  out.comm_r_last = tree_r.root();
  set_comm_r(out);
  fill_partitions(out, full_view_t{labels, data, tree_d, tree_c, tree_r}, g);
  return out;
}

vanilla_proof_t generate_sparse(const sector_params_t& p, std::uint64_t seed) {
  vanilla_proof_t out;
  out.params = p;
  out.model = "sparse";
  if (p.feature != porep_feature_t::none)
    throw std::invalid_argument("the sparse model draws interactive challenges only: synthetic ones hang on comm_r, "
                                "which its trees are built after (use a replicated sector, 2 KiB or 8 MiB)");
  out.replica_id = prf_fr(seed, "replica_id");
  out.seed = prf_bytes(seed, "seed");
  stacked_graph_t g(p);

  std::set<std::uint64_t> challenged, columns;
  for (unsigned k = 0; k < p.partitions; ++k)
    for (auto c : partition_challenges(p, out.replica_id, out.seed, k)) {
      challenged.insert(c);
      columns.insert(c);
      for (auto d : g.drg_parents(c)) columns.insert(d);
      for (auto e : g.exp_parents(c)) columns.insert(e);
    }
  sparse_labels_t labels(g, out.replica_id, seed, challenged);

  std::unordered_map<std::uint64_t, ff::fr_t> d_leaves, c_leaves, r_leaves;
  for (auto c : challenged) {
    d_leaves.emplace(c, prf_fr(seed, "data", c));
    r_leaves.emplace(c, labels(p.layers, c) + d_leaves.at(c));
  }
  std::vector<ff::fr_t> rows(p.layers);
  for (auto v : columns) {
    for (unsigned l = 1; l <= p.layers; ++l) rows[l - 1] = labels(l, v);
    c_leaves.emplace(v, hash_column(rows));
  }
  auto filler = [seed](std::string_view tag) {
    return [seed, tag](unsigned level, std::uint64_t i) { return prf_fr(seed, tag, level, i); };
  };
  sparse_merkle_tree_t tree_d(tree_hash_t::sha256, p.tree_d_arities(), d_leaves, filler("tree_d"));
  sparse_merkle_tree_t tree_c(tree_hash_t::poseidon, p.tree_cr_arities(), c_leaves, filler("tree_c"));
  sparse_merkle_tree_t tree_r(tree_hash_t::poseidon, p.tree_cr_arities(), r_leaves, filler("tree_r"));
  out.comm_d = tree_d.root();
  out.comm_c = tree_c.root();
  out.comm_r_last = tree_r.root();
  set_comm_r(out);
  fill_partitions(out, sparse_view_t{labels, seed, tree_d, tree_c, tree_r}, g);
  return out;
}

vanilla_proof_t generate_vanilla(const sector_params_t& p, std::uint64_t seed, const replica_inputs_t& inputs) {
  return p.nodes <= (std::uint64_t(8) << 20) / node_bytes ? generate_replicated(p, seed, inputs)
                                                           : generate_sparse(p, seed);
}

}  // namespace cuzk::porep
