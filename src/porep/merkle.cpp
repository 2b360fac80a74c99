#include "porep/merkle.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <stdexcept>
#include <string>

#include "gadgets/poseidon_native.hpp"
#include "gadgets/sha256_native.hpp"
#include "porep/domain.hpp"

namespace cuzk::porep {

ff::fr_t hash_children(tree_hash_t h, std::span<const ff::fr_t> children) {
  if (h == tree_hash_t::poseidon) return gadgets::poseidon_hash(children);
  if (children.size() != 2) throw std::invalid_argument("Tree D is binary");
  std::array<std::uint8_t, 64> buf;
  children[0].to_bytes_le(std::span(buf.data(), 32));
  children[1].to_bytes_le(std::span(buf.data() + 32, 32));
  return fr_from_trimmed(gadgets::sha256(buf));
}

ff::fr_t hash_column(std::span<const ff::fr_t> rows) { return gadgets::poseidon_hash(rows); }

std::vector<unsigned> path_slots(std::span<const unsigned> arities, std::uint64_t node) {
  std::vector<unsigned> s;
  s.reserve(arities.size());
  for (unsigned a : arities) {
    s.push_back(unsigned(node % a));
    node /= a;
  }
  return s;
}

std::uint64_t tree_leaves(std::span<const unsigned> arities) {
  std::uint64_t n = 1;
  for (unsigned a : arities) n *= a;
  return n;
}

ff::fr_t path_root(tree_hash_t h, std::span<const unsigned> arities, std::uint64_t node, const ff::fr_t& leaf,
                   const merkle_path_t& path) {
  if (path.siblings.size() != arities.size())
    throw std::invalid_argument("path has " + std::to_string(path.siblings.size()) + " levels, the tree has " +
                                std::to_string(arities.size()));
  ff::fr_t cur = leaf;
  std::vector<ff::fr_t> children;
  for (std::size_t l = 0; l < arities.size(); ++l) {
    const unsigned a = arities[l];
    const auto& sib = path.siblings[l];
    if (sib.size() != a - 1)
      throw std::invalid_argument("path level " + std::to_string(l) + " has " + std::to_string(sib.size()) +
                                  " siblings, expected " + std::to_string(a - 1));
    const unsigned slot = unsigned(node % a);
    node /= a;
    children.assign(sib.begin(), sib.end());
    children.insert(children.begin() + slot, cur);
    cur = hash_children(h, children);
  }
  return cur;
}

ff::fr_t path_hasher_t::root(std::span<const unsigned> arities, std::uint64_t node, const ff::fr_t& leaf,
                             const merkle_path_t& path) {
  if (path.siblings.size() != arities.size())
    throw std::invalid_argument("path has " + std::to_string(path.siblings.size()) + " levels, the tree has " +
                                std::to_string(arities.size()));
  ff::fr_t cur = leaf;
  std::vector<ff::fr_t> children;
  for (std::size_t l = 0; l < arities.size(); ++l) {
    const unsigned a = arities[l];
    const auto& sib = path.siblings[l];
    if (sib.size() != a - 1)
      throw std::invalid_argument("path level " + std::to_string(l) + " has " + std::to_string(sib.size()) +
                                  " siblings, expected " + std::to_string(a - 1));
    const unsigned slot = unsigned(node % a);
    node /= a;
    children.assign(sib.begin(), sib.end());
    children.insert(children.begin() + slot, cur);
    auto& entry = memo_[std::uint64_t(l) << 58 | node];
    if (entry.first != children) entry = {children, hash_children(h_, children)};
    cur = entry.second;
  }
  return cur;
}

merkle_tree_t::merkle_tree_t(tree_hash_t h, std::vector<unsigned> arities, std::vector<ff::fr_t> leaves)
    : arities_(std::move(arities)) {
  if (leaves.size() != tree_leaves(arities_))
    throw std::invalid_argument("merkle_tree_t: " + std::to_string(leaves.size()) + " leaves for a tree of " +
                                std::to_string(tree_leaves(arities_)));
  levels_.push_back(std::move(leaves));
  for (unsigned a : arities_) {
    const auto& below = levels_.back();
    std::vector<ff::fr_t> up(below.size() / a);
    // Each parent on its own: a 512 MiB sector's Tree R is 2.4 M Poseidon-8 hashes.
    using range_t = tbb::blocked_range<std::size_t>;
    tbb::parallel_for(range_t(0, up.size(), 256), [&](const range_t& r) {
      for (std::size_t i = r.begin(); i < r.end(); ++i) up[i] = hash_children(h, std::span(below.data() + a * i, a));
    });
    levels_.push_back(std::move(up));
  }
}

namespace {

// The siblings of `node` at every level, value(level, index) giving a node.
template <class F>
merkle_path_t path_of(std::span<const unsigned> arities, std::uint64_t node, F&& value) {
  merkle_path_t p;
  for (std::size_t l = 0; l < arities.size(); ++l) {
    const unsigned a = arities[l];
    const std::uint64_t first = node - node % a;
    std::vector<ff::fr_t> sib;
    for (std::uint64_t j = first; j < first + a; ++j)
      if (j != node) sib.push_back(value(unsigned(l), j));
    p.siblings.push_back(std::move(sib));
    node /= a;
  }
  return p;
}

}  // namespace

merkle_path_t merkle_tree_t::path(std::uint64_t node) const {
  return path_of(arities_, node, [this](unsigned l, std::uint64_t j) { return levels_[l][j]; });
}

namespace {

std::vector<unsigned> first_levels(std::span<const unsigned> arities, unsigned n) {
  if (n == 0 || n > arities.size())
    throw std::invalid_argument("block_merkle_tree_t: " + std::to_string(n) + " block levels of a tree of " +
                                std::to_string(arities.size()));
  return {arities.begin(), arities.begin() + n};
}

}  // namespace

block_merkle_tree_t::block_merkle_tree_t(tree_hash_t h, std::vector<unsigned> arities, unsigned block_levels,
                                         std::vector<ff::fr_t> first, std::vector<ff::fr_t> rest)
    : arities_(std::move(arities)), block_levels_(block_levels), leaves_(tree_leaves(arities_)),
      first_(h, first_levels(arities_, block_levels), std::move(first)) {
  const bool one_block = block_levels_ == arities_.size();
  if (one_block != rest.empty())
    throw std::invalid_argument(one_block ? "block_merkle_tree_t: one block, but repeated leaves were given"
                                          : "block_merkle_tree_t: no repeated block");
  if (!one_block) rest_.emplace(h, first_levels(arities_, block_levels), std::move(rest));
  if (one_block) return;
  head_.push_back(first_.root());
  tail_.push_back(rest_->root());
  std::vector<ff::fr_t> children;
  for (std::size_t l = block_levels_; l < arities_.size(); ++l) {
    const unsigned a = arities_[l];
    children.assign(a, tail_.back());
    const ff::fr_t t = hash_children(h, children);
    children[0] = head_.back();
    head_.push_back(hash_children(h, children));
    tail_.push_back(t);
  }
}

const ff::fr_t& block_merkle_tree_t::root() const { return head_.empty() ? first_.root() : head_.back(); }

ff::fr_t block_merkle_tree_t::node(unsigned level, std::uint64_t index) const {
  if (level > arities_.size()) throw std::out_of_range("block_merkle_tree_t: level " + std::to_string(level));
  std::uint64_t row = leaves_;
  for (unsigned l = 0; l < level; ++l) row /= arities_[l];
  if (index >= row)
    throw std::out_of_range("block_merkle_tree_t: node " + std::to_string(index) + " of a row of " +
                            std::to_string(row));
  if (level >= block_levels_ && !head_.empty()) {
    const std::size_t k = level - block_levels_;
    return index == 0 ? head_[k] : tail_[k];
  }
  std::uint64_t width = first_.leaves();
  for (unsigned l = 0; l < level; ++l) width /= arities_[l];
  const std::uint64_t block = index / width;
  return (block == 0 ? first_ : *rest_).node(level, index % width);
}

merkle_path_t block_merkle_tree_t::path(std::uint64_t node) const {
  return path_of(arities_, node, [this](unsigned l, std::uint64_t j) { return this->node(l, j); });
}

sparse_merkle_tree_t::sparse_merkle_tree_t(tree_hash_t h, std::vector<unsigned> arities,
                                           const std::unordered_map<std::uint64_t, ff::fr_t>& touched,
                                           filler_t filler)
    : arities_(std::move(arities)), filler_(std::move(filler)) {
  levels_.push_back(touched);
  std::vector<ff::fr_t> children;
  for (unsigned a : arities_) {
    const auto& below = levels_.back();
    const unsigned level = unsigned(levels_.size() - 1);
    std::unordered_map<std::uint64_t, ff::fr_t> up;
    for (const auto& kv : below) {
      const std::uint64_t parent = kv.first / a;
      if (up.count(parent)) continue;
      children.clear();
      for (std::uint64_t j = parent * a; j < parent * a + a; ++j) {
        auto it = below.find(j);
        children.push_back(it != below.end() ? it->second : filler_(level, j));
      }
      up.emplace(parent, hash_children(h, children));
    }
    levels_.push_back(std::move(up));
  }
  root_ = node_value(unsigned(arities_.size()), 0);
}

ff::fr_t sparse_merkle_tree_t::node_value(unsigned level, std::uint64_t index) const {
  auto it = levels_[level].find(index);
  return it != levels_[level].end() ? it->second : filler_(level, index);
}

merkle_path_t sparse_merkle_tree_t::path(std::uint64_t node) const {
  return path_of(arities_, node, [this](unsigned l, std::uint64_t j) { return node_value(l, j); });
}

}  // namespace cuzk::porep
