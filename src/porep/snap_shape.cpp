#include "porep/snap_shape.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace cuzk::porep {

namespace {

constexpr std::uint64_t kib = 1024, mib = kib * kib, gib = mib * kib;
constexpr std::array<std::uint64_t, 11> sizes{kib,      2 * kib,   4 * kib,   8 * kib, 16 * kib, 32 * kib,
                                              8 * mib,  16 * mib,  512 * mib, 32 * gib, 64 * gib};

struct arities_t {
  unsigned sub, top;
};

// validate_tree_r_shape (constants.rs), keyed by node count.
arities_t tree_r_shape(std::uint64_t nodes) {
  switch (nodes) {
    case 1u << 5: return {4, 0};
    case 1u << 6: return {0, 0};
    case 1u << 7: return {2, 0};
    case 1u << 8: return {4, 0};
    case 1u << 9: return {8, 0};
    case 1u << 10: return {8, 2};
    case 1u << 18: return {0, 0};
    case 1u << 19: return {2, 0};
    case 1u << 24: return {0, 0};
    case 1ull << 30: return {8, 0};
    case 1ull << 31: return {8, 2};
    default: break;
  }
  throw std::invalid_argument("snap: no Tree R shape for " + std::to_string(nodes) + " nodes");
}

}  // namespace

std::span<const std::uint64_t> snap_sector_sizes() { return sizes; }

snap_shape_t snap_shape_for(std::uint64_t sector_bytes) {
  bool allowed = false;
  for (std::uint64_t s : sizes) allowed = allowed || s == sector_bytes;
  if (!allowed)
    throw std::invalid_argument("snap: " + std::to_string(sector_bytes) +
                                " bytes is not a SnapDeals sector size (1, 2, 4, 8, 16, 32 KiB, 8, 16, 512 MiB, "
                                "32, 64 GiB)");
  snap_shape_t s;
  s.sector_bytes = sector_bytes;
  s.nodes = sector_bytes / 32;
  s.challenge_bit_len = unsigned(std::countr_zero(s.nodes));
  s.partitions = s.nodes <= 8 * kib / 32 ? 1 : s.nodes <= 32 * kib / 32 ? 2 : s.nodes <= 16 * mib / 32 ? 4 : 16;
  s.partition_bit_len = unsigned(std::countr_zero(s.partitions));
  s.challenges = s.nodes <= 16 * mib / 32 ? 10 : 86;
  s.apex_leaves = s.nodes <= 8 * kib / 32 ? 8 : 128;
  s.apex_leaf_bit_len = unsigned(std::countr_zero(s.apex_leaves));
  const arities_t a = tree_r_shape(s.nodes);
  s.sub_arity = a.sub;
  s.top_arity = a.top;
  if (s.nodes <= 32 * kib / 32) s.hs = {1, 1, 1, 1, 1, 1};
  else s.hs = {7, 8, 9, 10, 11, 12};
  return s;
}

unsigned snap_shape_t::tree_r_base_levels() const {
  unsigned bits = challenge_bit_len;
  if (sub_arity) bits -= unsigned(std::countr_zero(sub_arity));
  if (top_arity) bits -= unsigned(std::countr_zero(top_arity));
  return bits / unsigned(std::countr_zero(base_arity));
}

std::vector<unsigned> snap_shape_t::tree_r_arities() const {
  std::vector<unsigned> a(tree_r_base_levels(), base_arity);
  if (sub_arity) a.push_back(sub_arity);
  if (top_arity) a.push_back(top_arity);
  return a;
}

unsigned snap_shape_t::challenges_per_digest() const { return 254 / random_bits_per_challenge(); }

unsigned snap_shape_t::digests_per_partition() const {
  const unsigned per = challenges_per_digest();
  return (challenges + per - 1) / per;
}

std::uint64_t snap_shape_t::k_and_h_select(unsigned k, unsigned h) const {
  if (k >= partitions)
    throw std::invalid_argument("snap: partition " + std::to_string(k) + " of a " + std::to_string(partitions) +
                                "-partition sector");
  for (unsigned i = 0; i < hs.size(); ++i)
    if (hs[i] == h) return std::uint64_t(k) | (std::uint64_t(1) << i << partition_bit_len);
  throw std::invalid_argument("snap: h = " + std::to_string(h) + " is not one of this sector size's hs");
}

}  // namespace cuzk::porep
