#pragma once
// Native Merkle trees as Filecoin builds them (FILECOIN_POREP.md §5): Tree D
// is binary over SHA-256 with the digest trimmed to 254 bits; Tree C / Tree R
// are 8-ary Poseidon base trees, with an 8-ary sub level (32 GiB: 8-8-0) and
// a binary top level (64 GiB: 8-8-2). Because base trees cover contiguous
// leaf ranges, every shape is one tree with per-level arities (leaf level
// first), and the leaf index read LSB-first gives each level's position:
// log2(arity) bits per level. These are the twins of merkle_gadget.hpp.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::gadgets {

enum class merkle_hasher_t { sha256, poseidon };

// Arities per level, leaf level first: base_levels x base_arity, then the sub
// and top arities when nonzero. Example 32 GiB Tree C/R: tree_arities(8, 9, 8, 0).
std::vector<std::size_t> tree_arities(std::size_t base_arity, std::size_t base_levels, std::size_t sub_arity = 0,
                                      std::size_t top_arity = 0);

// One level of an inclusion path. `index` is the node's slot among its
// `arity` children; `siblings` are the other arity - 1 children in order.
// Values are nullopt when the circuit is built without a witness.
struct merkle_level_t {
  std::size_t arity = 2;
  std::optional<std::size_t> index;
  std::vector<std::optional<ff::fr_t>> siblings;
};
using merkle_path_t = std::vector<merkle_level_t>;

// A path with no values for the given arities (keygen / shape synthesis).
merkle_path_t empty_merkle_path(std::span<const std::size_t> arities);

// Filecoin's Sha256 hasher node: trim(SHA256(left_le32 || right_le32)),
// trim = clear the top two bits of byte 31 (value < 2^254).
ff::fr_t sha256_hash2_trimmed(const ff::fr_t& left, const ff::fr_t& right);

// Parent of `children` (2 for SHA-256; 2, 4, 8 or 11 for Poseidon).
ff::fr_t merkle_hash_node(merkle_hasher_t hasher, std::span<const ff::fr_t> children);

// All layers, leaves first, root last (a single element). The leaf count must
// equal the product of the arities; std::invalid_argument otherwise.
std::vector<std::vector<ff::fr_t>> merkle_tree_layers(merkle_hasher_t hasher, std::span<const std::size_t> arities,
                                                      std::span<const ff::fr_t> leaves);

// Inclusion path of leaf `leaf_index` in a tree built by merkle_tree_layers.
merkle_path_t merkle_path_of(std::span<const std::size_t> arities, const std::vector<std::vector<ff::fr_t>>& layers,
                             std::size_t leaf_index);

// The root a path leads to from `leaf` (every value must be present).
ff::fr_t merkle_root_from_path(merkle_hasher_t hasher, const ff::fr_t& leaf, const merkle_path_t& path);

// The leaf index a path encodes: level positions concatenated LSB-first,
// log2(arity) bits per level (the packed "path" public input).
std::size_t merkle_path_index(const merkle_path_t& path);

}  // namespace cuzk::gadgets
