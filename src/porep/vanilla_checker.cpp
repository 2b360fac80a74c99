#include "porep/vanilla_checker.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gadgets/poseidon_native.hpp"
#include "porep/domain.hpp"
#include "porep/labeling.hpp"
#include "porep/merkle.hpp"
#include "porep/stacked_graph_t.hpp"

namespace cuzk::porep {

namespace {

// Carries the first failure out of the nested loops.
struct failure_t {
  check_failure_t f;
};

[[noreturn]] void fail(std::string element, std::string reason) { throw failure_t{{std::move(element), std::move(reason)}}; }

std::string idx(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

void check_path_shape(const merkle_path_t& p, const std::vector<unsigned>& arities, const std::string& where) {
  if (p.siblings.size() != arities.size())
    fail(where, "expected " + std::to_string(arities.size()) + " levels, got " + std::to_string(p.siblings.size()));
  for (std::size_t l = 0; l < arities.size(); ++l)
    if (p.siblings[l].size() != arities[l] - 1)
      fail(idx(where, l), "expected " + std::to_string(arities[l] - 1) + " siblings, got " +
                              std::to_string(p.siblings[l].size()));
}

void check_column_shape(const column_opening_t& c, const sector_params_t& p, const std::string& where) {
  if (c.rows.size() != p.layers)
    fail(where + ".column", "expected " + std::to_string(p.layers) + " labels, got " + std::to_string(c.rows.size()));
  check_path_shape(c.tree_c, p.tree_cr_arities(), where + ".path");
}

void check_shapes(const vanilla_proof_t& v) {
  const auto& p = v.params;
  if (v.partitions.size() != p.partitions)
    fail("partitions", "expected " + std::to_string(p.partitions) + " partitions, got " +
                           std::to_string(v.partitions.size()));
  for (std::size_t k = 0; k < v.partitions.size(); ++k) {
    const std::string pw = idx("partitions", k);
    if (v.partitions[k].index != k) fail(pw + ".k", "expected " + std::to_string(k));
    const auto& ch = v.partitions[k].challenges;
    if (ch.size() != p.challenges_per_partition)
      fail(pw + ".challenges", "expected " + std::to_string(p.challenges_per_partition) + " challenges, got " +
                                   std::to_string(ch.size()));
    for (std::size_t i = 0; i < ch.size(); ++i) {
      const std::string cw = idx(pw + ".challenges", i);
      check_path_shape(ch[i].tree_d, p.tree_d_arities(), cw + ".comm_d_proof.path");
      for (std::size_t m = 0; m < drg_degree; ++m) check_column_shape(ch[i].drg_parents[m], p, idx(cw + ".drg_parents", m));
      for (std::size_t m = 0; m < expansion_degree; ++m)
        check_column_shape(ch[i].exp_parents[m], p, idx(cw + ".exp_parents", m));
      check_column_shape(ch[i].column, p, cw + ".column");
      check_path_shape(ch[i].tree_r, p.tree_cr_arities(), cw + ".comm_r_last_proof.path");
    }
  }
}

// Path hashers shared by all challenges of one check (they remember upper levels).
struct hashers_t {
  path_hasher_t d{tree_hash_t::sha256}, c{tree_hash_t::poseidon}, r{tree_hash_t::poseidon};
};

void check_column_in_tree_c(const vanilla_proof_t& v, hashers_t& h, const column_opening_t& c,
                            const std::string& where) {
  const auto ar = v.params.tree_cr_arities();
  if (h.c.root(ar, c.node, hash_column(c.rows), c.tree_c) != v.comm_c)
    fail(where, "column hash and Tree C path do not reach comm_c (a label of this column or a path element is wrong)");
}

void check_labels(const vanilla_proof_t& v, const challenge_proof_t& c, const std::string& where) {
  std::vector<ff::fr_t> parents;
  for (unsigned layer = 1; layer <= v.params.layers; ++layer) {
    parents.clear();
    for (const auto& d : c.drg_parents) parents.push_back(d.rows[layer - 1]);
    if (layer > 1)
      for (const auto& e : c.exp_parents) parents.push_back(e.rows[layer - 2]);
    if (compute_label(v.replica_id, layer, c.node, parents) != c.column.rows[layer - 1])
      fail(idx(where + ".column.column", layer - 1),
           "label of layer " + std::to_string(layer) + " is not SHA-256 of replica_id, layer, node and its parents' labels");
  }
}

void check_challenge(const vanilla_proof_t& v, const stacked_graph_t& g, hashers_t& h, const challenge_proof_t& c,
                     std::uint64_t expected_node, const std::string& where) {
  const auto& p = v.params;
  if (c.node != expected_node)
    fail(where + ".node", "challenge is " + std::to_string(c.node) + ", derivation from replica_id and seed gives " +
                              std::to_string(expected_node));
  const auto drg = g.drg_parents(c.node);
  const auto exp = g.exp_parents(c.node);
  for (unsigned m = 0; m < drg_degree; ++m)
    if (c.drg_parents[m].node != drg[m])
      fail(idx(where + ".drg_parents", m) + ".node", "DRG parent " + std::to_string(m) + " of node " +
                                                         std::to_string(c.node) + " is " + std::to_string(drg[m]));
  for (unsigned m = 0; m < expansion_degree; ++m)
    if (c.exp_parents[m].node != exp[m])
      fail(idx(where + ".exp_parents", m) + ".node", "expander parent " + std::to_string(m) + " of node " +
                                                         std::to_string(c.node) + " is " + std::to_string(exp[m]));
  if (c.column.node != c.node) fail(where + ".column.node", "must equal the challenge " + std::to_string(c.node));
  if (!is_fr_safe(c.data_leaf)) fail(where + ".comm_d_proof.leaf", "data node is not below 2^254 (fr32 padding)");
  if (h.d.root(p.tree_d_arities(), c.node, c.data_leaf, c.tree_d) != v.comm_d)
    fail(where + ".comm_d_proof", "data leaf and Tree D path do not reach comm_d");
  for (unsigned m = 0; m < drg_degree; ++m) check_column_in_tree_c(v, h, c.drg_parents[m], idx(where + ".drg_parents", m));
  for (unsigned m = 0; m < expansion_degree; ++m)
    check_column_in_tree_c(v, h, c.exp_parents[m], idx(where + ".exp_parents", m));
  check_labels(v, c, where);
  check_column_in_tree_c(v, h, c.column, where + ".column");
  if (c.replica_leaf != c.column.rows.back() + c.data_leaf)
    fail(where + ".comm_r_last_proof.leaf", "encoded leaf is not last-layer label + data leaf");
  if (h.r.root(p.tree_cr_arities(), c.node, c.replica_leaf, c.tree_r) != v.comm_r_last)
    fail(where + ".comm_r_last_proof.path", "encoded leaf and Tree R path do not reach comm_r_last");
}

void check_all(const vanilla_proof_t& v) {
  check_shapes(v);
  const auto& p = v.params;
  if (v.replica_id_inputs) {
    const auto& ri = *v.replica_id_inputs;
    if (compute_replica_id(ri.prover_id, ri.sector_id, ri.ticket, v.comm_d, p.porep_id()) != v.replica_id)
      fail("replica_id", "is not SHA-256(prover_id ‖ sector_id ‖ ticket ‖ comm_d ‖ porep_id), trimmed");
  }
  std::array<ff::fr_t, 2> cr{v.comm_c, v.comm_r_last};
  if (gadgets::poseidon_hash(cr) != v.comm_r) fail("comm_r", "is not Poseidon_2(comm_c, comm_r_last)");
  // The challenges are independent: checked in parallel (a 32 GiB C1's 180
  // took ~0.9 s on one core, 57 % of it Poseidon), each thread with hashers
  // of its own; the failure reported is the first in the proof's order, as
  // a check in turn would report it.
  const stacked_graph_t g(p);
  std::vector<std::vector<std::uint64_t>> expected(v.partitions.size());
  std::vector<std::pair<std::size_t, std::size_t>> at;  // (partition, challenge) in order
  for (std::size_t k = 0; k < v.partitions.size(); ++k) {
    expected[k] = partition_challenges(p, v.replica_id, v.comm_r, v.seed, unsigned(k));
    for (std::size_t i = 0; i < v.partitions[k].challenges.size(); ++i) at.emplace_back(k, i);
  }
  tbb::enumerable_thread_specific<hashers_t> hashers;
  std::vector<std::optional<check_failure_t>> failed(at.size());  // each slot written by one thread
  std::atomic<std::size_t> first{SIZE_MAX};                        // the lowest failing position
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, at.size(), 1), [&](const auto& r) {
    hashers_t& h = hashers.local();
    for (std::size_t j = r.begin(); j < r.end(); ++j) {
      if (first.load(std::memory_order_relaxed) < j) return;  // a failure earlier in the order is already known
      const auto [k, i] = at[j];
      try {
        check_challenge(v, g, h, v.partitions[k].challenges[i], expected[k][i],
                        idx(idx("partitions", k) + ".challenges", i));
      } catch (const failure_t& f) {
        failed[j] = f.f;
        std::size_t seen = first.load();
        while (j < seen && !first.compare_exchange_weak(seen, j)) {
        }
        return;
      }
    }
  });
  if (const std::size_t j = first.load(); j != SIZE_MAX) throw failure_t{*failed[j]};
}

}  // namespace

std::optional<check_failure_t> check_vanilla(const vanilla_proof_t& proof) {
  try {
    check_all(proof);
  } catch (const failure_t& f) {
    return f.f;
  }
  return std::nullopt;
}

}  // namespace cuzk::porep
