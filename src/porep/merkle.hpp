#pragma once
// Trees of the PoRep (FILECOIN_POREP.md §5): Tree D is binary SHA-256 with
// trimmed outputs; Trees C and R are Poseidon trees whose levels have arity 8
// (base and sub levels) or 2 (the 64 GiB top). A compound tree is one
// mixed-arity tree because base trees are contiguous node ranges, so the
// leaf index is the node index at every shape.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "ff/fr.hpp"
#include "porep/merkle_path_t.hpp"

namespace cuzk::porep {

enum class tree_hash_t { sha256, poseidon };

// Parent of `children`: trim(SHA-256(left ‖ right)) for sha256 (2 children),
// Poseidon with arity = children.size() otherwise.
ff::fr_t hash_children(tree_hash_t h, std::span<const ff::fr_t> children);

// Poseidon of a column (arity = layers: 2 or 11), the Tree C leaf.
ff::fr_t hash_column(std::span<const ff::fr_t> rows);

// Slot of the path node at each level (digits of `node` in the arities' radix).
std::vector<unsigned> path_slots(std::span<const unsigned> arities, std::uint64_t node);

// Product of the arities: the number of leaves.
std::uint64_t tree_leaves(std::span<const unsigned> arities);

// Root reached from `leaf` at `node` along `path`. Throws std::invalid_argument
// when the path has the wrong number of levels or siblings for `arities`.
ff::fr_t path_root(tree_hash_t h, std::span<const unsigned> arities, std::uint64_t node, const ff::fr_t& leaf,
                   const merkle_path_t& path);

// path_root that remembers, per (level, parent index), the children it hashed
// and the result. Openings of one tree share their upper levels (a 32 GiB
// Tree C check opens 2,700 columns whose top four levels hold < 600 nodes),
// so each shared node is hashed once. A result is reused only when the
// children are identical, so a corrupted path still fails.
class path_hasher_t {
 public:
  explicit path_hasher_t(tree_hash_t h) : h_(h) {}
  ff::fr_t root(std::span<const unsigned> arities, std::uint64_t node, const ff::fr_t& leaf,
                const merkle_path_t& path);

 private:
  tree_hash_t h_;
  std::unordered_map<std::uint64_t, std::pair<std::vector<ff::fr_t>, ff::fr_t>> memo_;  // key: level << 58 | index
};

// Every node of a tree, built from all its leaves.
class merkle_tree_t {
 public:
  merkle_tree_t(tree_hash_t h, std::vector<unsigned> arities, std::vector<ff::fr_t> leaves);
  const ff::fr_t& root() const { return levels_.back()[0]; }
  const ff::fr_t& leaf(std::uint64_t node) const { return levels_[0][node]; }
  // Node `index` of the row `level` levels above the leaves.
  const ff::fr_t& node(unsigned level, std::uint64_t index) const { return levels_.at(level).at(index); }
  std::uint64_t leaves() const { return levels_[0].size(); }
  merkle_path_t path(std::uint64_t node) const;

 private:
  std::vector<unsigned> arities_;
  std::vector<std::vector<ff::fr_t>> levels_;
};

// A tree whose leaves are blocks of tree_leaves(arities[0, block_levels))
// leaves: the first block `first`, every later block a copy of `rest`. Only
// the two blocks' trees are built; above them each level has a first node and
// a value every other node shares, so a 2^30-leaf tree of 2^18-leaf blocks
// costs two 2^18-leaf trees (porep::snap_sector_t's repeated-block model).
// With block_levels = arities.size() it is one full tree and `rest` is empty.
class block_merkle_tree_t {
 public:
  block_merkle_tree_t(tree_hash_t h, std::vector<unsigned> arities, unsigned block_levels,
                      std::vector<ff::fr_t> first, std::vector<ff::fr_t> rest);
  const ff::fr_t& root() const;
  ff::fr_t leaf(std::uint64_t node) const { return this->node(0, node); }
  // Node `index` of the row `level` levels above the leaves;
  // std::out_of_range past the row.
  ff::fr_t node(unsigned level, std::uint64_t index) const;
  merkle_path_t path(std::uint64_t node) const;
  std::uint64_t leaves() const { return leaves_; }

 private:
  std::vector<unsigned> arities_;
  unsigned block_levels_;
  std::uint64_t leaves_;
  merkle_tree_t first_;
  std::optional<merkle_tree_t> rest_;
  std::vector<ff::fr_t> head_, tail_;  // levels block_levels.. : node 0, every other node
};

// A tree of which only the subtrees above a few touched leaves are computed.
// Every other node takes the value filler(level, index) (level 0 = leaves), a
// deterministic stand-in for a subtree nobody opens. All paths then hash to
// one root, and a 2^30-leaf tree costs (touched leaves × depth) hashes.
class sparse_merkle_tree_t {
 public:
  using filler_t = std::function<ff::fr_t(unsigned level, std::uint64_t index)>;
  sparse_merkle_tree_t(tree_hash_t h, std::vector<unsigned> arities,
                       const std::unordered_map<std::uint64_t, ff::fr_t>& touched, filler_t filler);
  const ff::fr_t& root() const { return root_; }
  ff::fr_t node_value(unsigned level, std::uint64_t index) const;
  merkle_path_t path(std::uint64_t node) const;

 private:
  std::vector<unsigned> arities_;
  std::vector<std::unordered_map<std::uint64_t, ff::fr_t>> levels_;
  filler_t filler_;
  ff::fr_t root_;
};

}  // namespace cuzk::porep
