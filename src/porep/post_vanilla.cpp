#include "porep/post_vanilla.hpp"

#include <array>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

#include "gadgets/poseidon_native.hpp"
#include "gadgets/sha256_native.hpp"
#include "porep/domain.hpp"
#include "porep/merkle.hpp"
#include "porep/post_challenges.hpp"
#include "porep/seeded_fr.hpp"

namespace cuzk::porep {

namespace {

// ---- generation ----

bool use_full_tree(const post_shape_t& shape, post_tree_model_t model) {
  if (model == post_tree_model_t::automatic) return shape.sector.nodes <= (std::uint64_t(8) << 20) / node_bytes;
  return model == post_tree_model_t::full;
}

// ---- checking ----

struct failure_t {
  check_failure_t f;
};

[[noreturn]] void fail(std::string element, std::string reason) {
  throw failure_t{{std::move(element), std::move(reason)}};
}

std::string idx(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

std::string hex_prefix(const ff::fr_t& x) {
  static const char* d = "0123456789abcdef";
  const auto b = to_le_bytes(x);
  std::string s;
  for (int i = 0; i < 4; ++i) s += d[b[i] >> 4], s += d[b[i] & 15];
  return s + "…";
}

void check_shapes(const post_shape_t& shape, const post_sector_proof_t& s, const std::string& where) {
  const auto ar = shape.sector.tree_cr_arities();
  if (s.challenges.size() != shape.challenges_per_sector)
    fail(where + ".inclusion_proofs", "expected " + std::to_string(shape.challenges_per_sector) +
                                          " inclusion proofs, got " + std::to_string(s.challenges.size()));
  for (std::size_t j = 0; j < s.challenges.size(); ++j) {
    const std::string pw = idx(where + ".inclusion_proofs", j) + ".path";
    const auto& p = s.challenges[j].path;
    if (p.siblings.size() != ar.size())
      fail(pw, "expected " + std::to_string(ar.size()) + " levels, got " + std::to_string(p.siblings.size()));
    for (std::size_t l = 0; l < ar.size(); ++l)
      if (p.siblings[l].size() != ar[l] - 1)
        fail(idx(pw, l), "expected " + std::to_string(ar[l] - 1) + " siblings, got " +
                             std::to_string(p.siblings[l].size()));
  }
}

void check_leaf_indices(const post_shape_t& shape, const post_sector_proof_t& s,
                        const std::vector<std::uint64_t>& expected, const std::string& where) {
  std::size_t matching = 0, first_bad = s.challenges.size();
  for (std::size_t j = 0; j < s.challenges.size(); ++j) {
    if (s.challenges[j].leaf_index >= shape.sector.nodes)
      fail(idx(where + ".inclusion_proofs", j) + ".leaf_index",
           std::to_string(s.challenges[j].leaf_index) + " is past the sector's " + std::to_string(shape.sector.nodes) +
               " leaves");
    if (s.challenges[j].leaf_index == expected[j]) ++matching;
    else if (first_bad == s.challenges.size()) first_bad = j;
  }
  if (first_bad == s.challenges.size()) return;
  // One wrong index leaves the others matching; a wrong sector id (or
  // randomness) leaves about nodes⁻¹ of them matching by chance.
  if (2 * matching < s.challenges.size())
    fail(where + ".sector_id", std::to_string(s.challenges.size() - matching) + " of the " +
                                   std::to_string(s.challenges.size()) + " leaf indices are not challenges of sector " +
                                   std::to_string(s.sector_id) +
                                   " under this randomness (the sector id or the randomness is wrong)");
  fail(idx(where + ".inclusion_proofs", first_bad) + ".leaf_index",
       "is " + std::to_string(s.challenges[first_bad].leaf_index) + ", the challenge derived from randomness, sector " +
           std::to_string(s.sector_id) + " and challenge " + std::to_string(first_bad) + " is " +
           std::to_string(expected[first_bad]));
}

// Node values proven by the openings that reach comm_r_last: key level << 58 | index.
using known_nodes_t = std::unordered_map<std::uint64_t, ff::fr_t>;
std::uint64_t node_key(std::size_t level, std::uint64_t index) { return std::uint64_t(level) << 58 | index; }

void learn_nodes(known_nodes_t& known, std::span<const unsigned> ar, const post_challenge_proof_t& c) {
  std::uint64_t node = c.leaf_index;
  ff::fr_t cur = c.leaf;
  std::vector<ff::fr_t> children;
  for (std::size_t l = 0; l < ar.size(); ++l) {
    const unsigned a = ar[l], slot = unsigned(node % a);
    children.assign(c.path.siblings[l].begin(), c.path.siblings[l].end());
    children.insert(children.begin() + slot, cur);
    const std::uint64_t first = node - slot;
    for (unsigned k = 0; k < a; ++k) known.emplace(node_key(l, first + k), children[k]);
    cur = hash_children(tree_hash_t::poseidon, children);
    node /= a;
  }
}

// Names the first element of a bad opening that contradicts a proven node.
[[noreturn]] void locate_bad_opening(const known_nodes_t& known, std::span<const unsigned> ar,
                                     const post_challenge_proof_t& c, const std::string& pw) {
  std::uint64_t node = c.leaf_index;
  ff::fr_t cur = c.leaf;
  std::vector<ff::fr_t> children;
  for (std::size_t l = 0; l < ar.size(); ++l) {
    const unsigned a = ar[l], slot = unsigned(node % a);
    const std::uint64_t first = node - slot;
    if (auto it = known.find(node_key(l, node)); it != known.end() && it->second != cur) {
      if (l == 0) fail(pw + ".leaf", "differs from leaf " + std::to_string(node) + " as another opening proves it");
      fail(idx(pw + ".path", l - 1), "the leaf and siblings up to here hash to a level-" + std::to_string(l) +
                                         " node that differs from the one another opening proves (the leaf or a "
                                         "sibling at or below this level is wrong)");
    }
    const auto& sib = c.path.siblings[l];
    for (std::size_t s = 0; s < sib.size(); ++s) {
      const std::uint64_t pos = first + (s < slot ? s : s + 1);
      if (auto it = known.find(node_key(l, pos)); it != known.end() && it->second != sib[s])
        fail(idx(idx(pw + ".path", l), s), "differs from node " + std::to_string(pos) + " of level " +
                                               std::to_string(l) + " as another opening proves it");
    }
    children.assign(sib.begin(), sib.end());
    children.insert(children.begin() + slot, cur);
    cur = hash_children(tree_hash_t::poseidon, children);
    node /= a;
  }
  fail(pw, "leaf and path do not reach comm_r_last");
}

void check_sector(const post_shape_t& shape, api_version_t v, const bytes32_t& randomness,
                  std::uint64_t sector_index, const post_sector_proof_t& s, const std::string& where) {
  check_shapes(shape, s, where);
  check_leaf_indices(shape, s, post_sector_challenges(shape, v, randomness, s.sector_id, sector_index), where);

  const auto ar = shape.sector.tree_cr_arities();
  path_hasher_t h(tree_hash_t::poseidon);
  std::vector<ff::fr_t> roots;
  std::size_t good = 0;
  for (const auto& c : s.challenges) {
    roots.push_back(h.root(ar, c.leaf_index, c.leaf, c.path));
    good += roots.back() == s.comm_r_last;
  }
  auto comm_r_of = [&](const ff::fr_t& comm_r_last) {
    std::array<ff::fr_t, 2> in{s.comm_c, comm_r_last};
    return gadgets::poseidon_hash(in);
  };
  // All openings agree on another root: comm_r_last is the odd one out when
  // there are several of them, or when that root is the one comm_r commits to.
  bool agree = !roots.empty() && good == 0;
  for (const auto& r : roots) agree = agree && r == roots[0];
  if (agree && (roots.size() > 1 || comm_r_of(roots[0]) == s.comm_r))
    fail(where + ".comm_r_last", "every inclusion proof reaches " + hex_prefix(roots[0]) + ", not comm_r_last " +
                                     hex_prefix(s.comm_r_last));
  if (comm_r_of(s.comm_r_last) != s.comm_r)
    fail(where + ".comm_r", "is not Poseidon-2(comm_c, comm_r_last) (comm_r or comm_c is wrong)");
  if (good == s.challenges.size()) return;
  known_nodes_t known;
  for (std::size_t j = 0; j < s.challenges.size(); ++j)
    if (roots[j] == s.comm_r_last) learn_nodes(known, ar, s.challenges[j]);
  for (std::size_t j = 0; j < s.challenges.size(); ++j)
    if (roots[j] != s.comm_r_last) locate_bad_opening(known, ar, s.challenges[j], idx(where + ".inclusion_proofs", j));
}

// The first element where a padding sector differs from the one it repeats.
void check_repeat(const post_sector_proof_t& s, const post_sector_proof_t& last, const std::string& where,
                  const std::string& last_name) {
  const std::string why = "a padding sector must repeat " + last_name;
  if (s.sector_id != last.sector_id) fail(where + ".sector_id", why);
  if (s.comm_r != last.comm_r) fail(where + ".comm_r", why);
  if (s.comm_c != last.comm_c) fail(where + ".comm_c", why);
  if (s.comm_r_last != last.comm_r_last) fail(where + ".comm_r_last", why);
  if (s.challenges.size() != last.challenges.size()) fail(where + ".inclusion_proofs", why);
  for (std::size_t j = 0; j < s.challenges.size(); ++j) {
    const auto &a = s.challenges[j], &b = last.challenges[j];
    const std::string pw = idx(where + ".inclusion_proofs", j);
    if (a.leaf_index != b.leaf_index) fail(pw + ".leaf_index", why);
    if (a.leaf != b.leaf) fail(pw + ".leaf", why);
    if (a.path.siblings.size() != b.path.siblings.size()) fail(pw + ".path", why);
    for (std::size_t l = 0; l < a.path.siblings.size(); ++l) {
      if (a.path.siblings[l].size() != b.path.siblings[l].size()) fail(idx(pw + ".path", l), why);
      for (std::size_t k = 0; k < a.path.siblings[l].size(); ++k)
        if (a.path.siblings[l][k] != b.path.siblings[l][k]) fail(idx(idx(pw + ".path", l), k), why);
    }
  }
}

}  // namespace

post_sector_proof_t generate_post_sector(const post_shape_t& shape, std::uint64_t sector_id,
                                         std::span<const std::uint64_t> leaves, std::uint64_t seed,
                                         post_tree_model_t model) {
  const auto& p = shape.sector;
  for (auto leaf : leaves)
    if (leaf >= p.nodes)
      throw std::invalid_argument("generate_post_sector: leaf " + std::to_string(leaf) + " of a sector of " +
                                  std::to_string(p.nodes) + " nodes");
  post_sector_proof_t out;
  out.sector_id = sector_id;
  out.comm_c = prf_fr(seed, "post comm_c", sector_id);
  auto leaf_value = [&](std::uint64_t i) { return prf_fr(seed, "post leaf", sector_id, 0, i); };
  auto open = [&](const auto& tree, auto&& leaf_of) {
    out.comm_r_last = tree.root();
    for (auto leaf : leaves) out.challenges.push_back({leaf, leaf_of(leaf), tree.path(leaf)});
  };
  if (use_full_tree(shape, model)) {
    if (p.nodes > (std::uint64_t(1) << 24))
      throw std::invalid_argument("generate_post_sector: a full Tree R above 512 MiB; use the sparse model");
    std::vector<ff::fr_t> values(p.nodes);
    for (std::uint64_t i = 0; i < p.nodes; ++i) values[i] = leaf_value(i);
    merkle_tree_t tree(tree_hash_t::poseidon, p.tree_cr_arities(), std::move(values));
    open(tree, [&](std::uint64_t i) { return tree.leaf(i); });
  } else {
    std::unordered_map<std::uint64_t, ff::fr_t> touched;
    for (auto leaf : leaves) touched.emplace(leaf, leaf_value(leaf));
    sparse_merkle_tree_t tree(tree_hash_t::poseidon, p.tree_cr_arities(), touched,
                              [seed, sector_id](unsigned level, std::uint64_t i) {
                                return prf_fr(seed, "post tree_r", sector_id, level, i);
                              });
    open(tree, [&](std::uint64_t i) { return touched.at(i); });
  }
  std::array<ff::fr_t, 2> in{out.comm_c, out.comm_r_last};
  out.comm_r = gadgets::poseidon_hash(in);
  return out;
}

std::vector<post_sector_proof_t> generate_post_partition(const post_shape_t& shape, api_version_t v,
                                                         const bytes32_t& randomness, unsigned partition_index,
                                                         std::span<const std::uint64_t> sector_ids, std::uint64_t seed,
                                                         post_tree_model_t model) {
  if (sector_ids.empty() || sector_ids.size() > shape.sectors_per_partition)
    throw std::invalid_argument("generate_post_partition: " + std::to_string(sector_ids.size()) +
                                " sectors for a partition of " + std::to_string(shape.sectors_per_partition));
  std::vector<post_sector_proof_t> out;
  out.reserve(sector_ids.size());
  for (std::size_t i = 0; i < sector_ids.size(); ++i) {
    const std::uint64_t sector_index = std::uint64_t(partition_index) * shape.sectors_per_partition + i;
    const auto leaves = post_sector_challenges(shape, v, randomness, sector_ids[i], sector_index);
    out.push_back(generate_post_sector(shape, sector_ids[i], leaves, seed, model));
  }
  return out;
}

std::vector<post_sector_proof_t> pad_post_partition(std::vector<post_sector_proof_t> sectors,
                                                    unsigned sectors_per_partition) {
  if (sectors.empty() || sectors.size() > sectors_per_partition)
    throw std::invalid_argument("pad_post_partition: " + std::to_string(sectors.size()) +
                                " sectors for a partition of " + std::to_string(sectors_per_partition));
  sectors.reserve(sectors_per_partition);
  while (sectors.size() < sectors_per_partition) sectors.push_back(sectors.back());
  return sectors;
}

std::optional<check_failure_t> check_post_sector(const post_shape_t& shape, api_version_t v,
                                                 const bytes32_t& randomness, std::uint64_t sector_index,
                                                 const post_sector_proof_t& sector, const std::string& where) {
  try {
    check_sector(shape, v, randomness, sector_index, sector, where);
  } catch (const failure_t& f) {
    return f.f;
  }
  return std::nullopt;
}

std::optional<check_failure_t> check_post_partition(const post_shape_t& shape, api_version_t v,
                                                    const bytes32_t& randomness, unsigned partition_index,
                                                    std::span<const post_sector_proof_t> sectors,
                                                    std::size_t real_sectors) {
  try {
    if (sectors.empty() || sectors.size() > shape.sectors_per_partition)
      fail("sectors", "expected 1 to " + std::to_string(shape.sectors_per_partition) + " sectors, got " +
                          std::to_string(sectors.size()));
    if (real_sectors == 0) real_sectors = sectors.size();
    if (real_sectors > sectors.size())
      fail("sectors", std::to_string(real_sectors) + " real sectors of " + std::to_string(sectors.size()));
    for (std::size_t i = 0; i < real_sectors; ++i)
      check_sector(shape, v, randomness, std::uint64_t(partition_index) * shape.sectors_per_partition + i, sectors[i],
                   idx("sectors", i));
    for (std::size_t i = real_sectors; i < sectors.size(); ++i)
      check_repeat(sectors[i], sectors[real_sectors - 1], idx("sectors", i), idx("sectors", real_sectors - 1));
  } catch (const failure_t& f) {
    return f.f;
  }
  return std::nullopt;
}

}  // namespace cuzk::porep
