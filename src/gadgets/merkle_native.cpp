#include "gadgets/merkle_native.hpp"

#include <bit>
#include <stdexcept>
#include <string>

#include "gadgets/poseidon_native.hpp"
#include "gadgets/sha256_native.hpp"

namespace cuzk::gadgets {

using ff::fr_t;

std::vector<std::size_t> tree_arities(std::size_t base_arity, std::size_t base_levels, std::size_t sub_arity,
                                      std::size_t top_arity) {
  std::vector<std::size_t> a(base_levels, base_arity);
  if (sub_arity) a.push_back(sub_arity);
  if (top_arity) a.push_back(top_arity);
  return a;
}

merkle_path_t empty_merkle_path(std::span<const std::size_t> arities) {
  merkle_path_t p;
  for (std::size_t a : arities) p.push_back({a, std::nullopt, std::vector<std::optional<fr_t>>(a - 1)});
  return p;
}

fr_t sha256_hash2_trimmed(const fr_t& left, const fr_t& right) {
  std::array<std::uint8_t, 64> buf;
  left.to_bytes_le(std::span(buf).first(32));
  right.to_bytes_le(std::span(buf).last(32));
  sha256_digest_t d = sha256(buf);
  d[31] &= 0x3f;
  return *fr_t::from_bytes_le(d);  // < 2^254 < r, cannot fail
}

fr_t merkle_hash_node(merkle_hasher_t hasher, std::span<const fr_t> children) {
  if (hasher == merkle_hasher_t::poseidon) return poseidon_hash(children);
  if (children.size() != 2) throw std::invalid_argument("merkle_hash_node: SHA-256 trees are binary");
  return sha256_hash2_trimmed(children[0], children[1]);
}

std::vector<std::vector<fr_t>> merkle_tree_layers(merkle_hasher_t hasher, std::span<const std::size_t> arities,
                                                  std::span<const fr_t> leaves) {
  std::size_t want = 1;
  for (std::size_t a : arities) want *= a;
  if (leaves.size() != want) {
    throw std::invalid_argument("merkle_tree_layers: " + std::to_string(leaves.size()) + " leaves for a tree of " +
                                std::to_string(want));
  }
  std::vector<std::vector<fr_t>> layers{{leaves.begin(), leaves.end()}};
  for (std::size_t a : arities) {
    const std::vector<fr_t>& below = layers.back();
    std::vector<fr_t> up;
    up.reserve(below.size() / a);
    for (std::size_t i = 0; i < below.size(); i += a) up.push_back(merkle_hash_node(hasher, std::span(below).subspan(i, a)));
    layers.push_back(std::move(up));
  }
  return layers;
}

merkle_path_t merkle_path_of(std::span<const std::size_t> arities, const std::vector<std::vector<fr_t>>& layers,
                             std::size_t leaf_index) {
  if (layers.size() != arities.size() + 1 || leaf_index >= layers[0].size()) {
    throw std::invalid_argument("merkle_path_of: leaf index " + std::to_string(leaf_index) + " outside the tree");
  }
  merkle_path_t path;
  std::size_t pos = leaf_index;
  for (std::size_t l = 0; l < arities.size(); ++l) {
    std::size_t a = arities[l], first = pos / a * a;
    merkle_level_t level{a, pos % a, {}};
    for (std::size_t k = 0; k < a; ++k)
      if (first + k != pos) level.siblings.push_back(layers[l][first + k]);
    path.push_back(std::move(level));
    pos /= a;
  }
  return path;
}

fr_t merkle_root_from_path(merkle_hasher_t hasher, const fr_t& leaf, const merkle_path_t& path) {
  fr_t cur = leaf;
  for (const merkle_level_t& level : path) {
    if (!level.index || *level.index >= level.arity || level.siblings.size() + 1 != level.arity) {
      throw std::invalid_argument("merkle_root_from_path: malformed level (index or sibling count)");
    }
    std::vector<fr_t> children;
    for (std::size_t k = 0, s = 0; k < level.arity; ++k) {
      if (k == *level.index) {
        children.push_back(cur);
      } else {
        if (!level.siblings[s]) throw std::invalid_argument("merkle_root_from_path: sibling value missing");
        children.push_back(*level.siblings[s++]);
      }
    }
    cur = merkle_hash_node(hasher, children);
  }
  return cur;
}

std::size_t merkle_path_index(const merkle_path_t& path) {
  std::size_t index = 0, shift = 0;
  for (const merkle_level_t& level : path) {
    if (!level.index) throw std::invalid_argument("merkle_path_index: index missing");
    index |= *level.index << shift;
    shift += std::size_t(std::countr_zero(level.arity));
  }
  return index;
}

}  // namespace cuzk::gadgets
