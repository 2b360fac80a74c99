#include "porep/snap_vanilla.hpp"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "gadgets/poseidon_constants.hpp"
#include "gadgets/poseidon_native.hpp"
#include "porep/merkle.hpp"
#include "porep/seeded_fr.hpp"

namespace cuzk::porep {

ff::fr_t snap_phi(const ff::fr_t& comm_d_new, const ff::fr_t& comm_r_old) {
  const ff::fr_t in[2] = {comm_d_new, comm_r_old};
  return gadgets::poseidon_hash(gadgets::poseidon_gen_randomness_params(), in);
}

ff::fr_t snap_rho(const ff::fr_t& phi, std::uint32_t high) {
  const ff::fr_t in[2] = {phi, ff::fr_t::from_u64(high)};
  return gadgets::poseidon_hash(gadgets::poseidon_gen_randomness_params(), in);
}

std::vector<std::uint32_t> snap_challenges(const snap_shape_t& shape, const ff::fr_t& comm_r_new, unsigned k) {
  if (k >= shape.partitions)
    throw std::invalid_argument(fmt::format("snap: partition {} of {}", k, shape.partitions));
  const unsigned bits = shape.random_bits_per_challenge(), per = shape.challenges_per_digest();
  const std::uint32_t partition_bits = std::uint32_t(k) << bits;
  std::vector<std::uint32_t> out;
  out.reserve(shape.challenges);
  for (std::uint64_t j = 0; out.size() < shape.challenges; ++j) {
    const ff::fr_t index = ff::fr_t::from_u64(std::uint64_t(k) * shape.digests_per_partition() + j);
    const ff::fr_t in[2] = {comm_r_new, index};
    const auto limbs = gadgets::poseidon_hash(gadgets::poseidon_gen_randomness_params(), in).to_canonical();
    for (unsigned i = 0; i < per && out.size() < shape.challenges; ++i) {
      std::uint32_t c = 0;
      for (unsigned b = 0; b < bits; ++b) {
        const unsigned at = i * bits + b;
        c |= std::uint32_t((limbs[at / 64] >> (at % 64)) & 1) << b;
      }
      out.push_back(c | partition_bits);
    }
  }
  return out;
}

namespace {

ff::fr_t hash2(const ff::fr_t& a, const ff::fr_t& b) {
  const ff::fr_t in[2] = {a, b};
  return hash_children(tree_hash_t::poseidon, in);
}

std::vector<unsigned> tree_d_arities(const snap_shape_t& s) { return std::vector<unsigned>(s.challenge_bit_len, 2u); }

unsigned checked_h(const snap_shape_t& shape, std::optional<unsigned> h) {
  const unsigned v = h.value_or(shape.h_default());
  (void)shape.k_and_h_select(0, v);  // throws for an h the circuit cannot select
  return v;
}

}  // namespace

struct snap_sector_t::trees_t {
  ff::fr_t comm_c, comm_r_old, comm_d_new, comm_r_new;
  block_merkle_tree_t r_old, d_new, r_new;
};

std::uint64_t snap_block_nodes(const snap_shape_t& shape) {
  const unsigned base = shape.tree_r_base_levels();
  if (base < 2) throw std::invalid_argument(fmt::format("snap: a base tree of {} level(s) has no blocks", base));
  return std::uint64_t(1) << (3 * std::min(6u, base - 1));
}

snap_sector_t::snap_sector_t(const snap_shape_t& shape, std::uint64_t seed, std::optional<unsigned> h,
                             snap_sector_model_t model)
    : shape_(shape), h_(checked_h(shape, h)) {
  const bool blocks = model == snap_sector_model_t::repeated_blocks;
  if (!blocks && shape.nodes > (std::uint64_t(1) << 24))
    throw std::invalid_argument(fmt::format("snap_sector_t: {} nodes; the random model stops at 512 MiB (the "
                                            "repeated-block model has no limit)",
                                            shape.nodes));
  // Nodes held: the whole sector, or its first block (the rest repeat the
  // old replica's block with zero data).
  const std::uint64_t n = blocks ? snap_block_nodes(shape) : shape.nodes;
  const unsigned r_levels = blocks ? unsigned(std::countr_zero(n) / 3) : unsigned(shape.tree_r_arities().size());
  const unsigned d_levels = blocks ? unsigned(std::countr_zero(n)) : shape.challenge_bit_len;
  std::vector<ff::fr_t> old_replica(n), data(n);
  tbb::parallel_for(std::uint64_t(0), n, [&](std::uint64_t i) {
    old_replica[i] = prf_fr(seed, "snap old", 0, 0, i);
    data[i] = prf_fr(seed, "snap data", 0, 0, i);
  });
  const ff::fr_t comm_c = prf_fr(seed, "snap comm_c", 0);
  auto rest = [&](std::vector<ff::fr_t> v) { return blocks ? v : std::vector<ff::fr_t>{}; };
  block_merkle_tree_t r_old(tree_hash_t::poseidon, shape.tree_r_arities(), r_levels, old_replica,
                            rest(old_replica));
  block_merkle_tree_t d_new(tree_hash_t::sha256, tree_d_arities(shape), d_levels, data,
                            rest(std::vector<ff::fr_t>(n, ff::fr_t::zero())));
  const ff::fr_t comm_r_old = hash2(comm_c, r_old.root());
  const ff::fr_t phi = snap_phi(d_new.root(), comm_r_old);
  const unsigned shr = shape.challenge_bit_len - h_;
  // One rho per run of 2^shr nodes (at most 2^12 of them).
  std::vector<ff::fr_t> rhos(std::size_t((n - 1) >> shr) + 1);
  for (std::size_t j = 0; j < rhos.size(); ++j) rhos[j] = snap_rho(phi, std::uint32_t(j));
  std::vector<ff::fr_t> new_replica(n);
  tbb::parallel_for(std::uint64_t(0), n, [&](std::uint64_t i) {
    new_replica[i] = old_replica[i] + data[i] * rhos[std::size_t(i >> shr)];
  });
  block_merkle_tree_t r_new(tree_hash_t::poseidon, shape.tree_r_arities(), r_levels, std::move(new_replica),
                            rest(std::move(old_replica)));
  const ff::fr_t comm_r_new = hash2(comm_c, r_new.root());
  t_ = std::make_unique<trees_t>(
      trees_t{comm_c, comm_r_old, d_new.root(), comm_r_new, std::move(r_old), std::move(d_new), std::move(r_new)});
}

snap_sector_t::~snap_sector_t() = default;
snap_sector_t::snap_sector_t(snap_sector_t&&) noexcept = default;
snap_sector_t& snap_sector_t::operator=(snap_sector_t&&) noexcept = default;

snap_public_t snap_sector_t::public_inputs(unsigned k) const {
  if (k >= shape_.partitions)
    throw std::invalid_argument(fmt::format("snap: partition {} of {}", k, shape_.partitions));
  return {k, t_->comm_r_old, t_->comm_d_new, t_->comm_r_new, h_};
}

snap_partition_proof_t snap_sector_t::partition_proof(unsigned k) const {
  snap_partition_proof_t p;
  p.comm_c = t_->comm_c;
  const unsigned height = shape_.apex_height();
  for (std::uint64_t i = 0; i < shape_.apex_leaves; ++i)
    p.apex_leaves.push_back(t_->d_new.node(height, std::uint64_t(k) * shape_.apex_leaves + i));
  auto open = [](const block_merkle_tree_t& t, std::uint32_t c) {
    return snap_opening_t{c, t.leaf(c), t.path(c), t.root()};
  };
  for (std::uint32_t c : snap_challenges(shape_, t_->comm_r_new, k))
    p.challenges.push_back({open(t_->r_old, c), open(t_->d_new, c), open(t_->r_new, c)});
  return p;
}

// ---- checking ----

namespace {

std::string at(const char* field, std::size_t i) { return fmt::format("{}[{}]", field, i); }

std::string opening_name(std::size_t i, const char* which) {
  return fmt::format("challenge_proofs[{}].{}", i, which);
}

std::optional<check_failure_t> fail(std::string element, std::string reason) {
  return check_failure_t{std::move(element), std::move(reason)};
}

// Levels and siblings of one opening against the tree's arities.
std::optional<check_failure_t> check_path_shape(const snap_opening_t& o, std::span<const unsigned> arities,
                                                std::uint64_t nodes, const std::string& where) {
  if (o.path.siblings.size() != arities.size())
    return fail(where + ".path", fmt::format("{} levels, the tree has {}", o.path.siblings.size(), arities.size()));
  for (std::size_t l = 0; l < arities.size(); ++l)
    if (o.path.siblings[l].size() + 1 != arities[l])
      return fail(fmt::format("{}.path[{}]", where, l),
                  fmt::format("{} siblings at an arity-{} level", o.path.siblings[l].size(), arities[l]));
  if (o.leaf_index >= nodes) return fail(where + ".path", fmt::format("leaf index {} of {}", o.leaf_index, nodes));
  return std::nullopt;
}

}  // namespace

std::optional<check_failure_t> check_snap_shape(const snap_shape_t& shape, const snap_partition_proof_t& proof) {
  if (proof.apex_leaves.size() != shape.apex_leaves)
    return fail("apex_leafs", fmt::format("{} apex leaves, this sector size takes {}", proof.apex_leaves.size(),
                                          shape.apex_leaves));
  if (proof.challenges.size() != shape.challenges)
    return fail("challenge_proofs", fmt::format("{} challenge proofs, this sector size takes {}",
                                                proof.challenges.size(), shape.challenges));
  const std::vector<unsigned> r_arities = shape.tree_r_arities(), d_arities = tree_d_arities(shape);
  for (std::size_t i = 0; i < proof.challenges.size(); ++i) {
    const auto& c = proof.challenges[i];
    for (auto [o, name, ar] : {std::tuple{&c.r_old, "proof_r_old", &r_arities},
                               std::tuple{&c.d_new, "proof_d_new", &d_arities},
                               std::tuple{&c.r_new, "proof_r_new", &r_arities}})
      if (auto f = check_path_shape(*o, *ar, shape.nodes, opening_name(i, name))) return f;
  }
  return std::nullopt;
}

std::optional<check_failure_t> check_snap_partition(const snap_shape_t& shape, const snap_public_t& pub,
                                                    const snap_partition_proof_t& proof) {
  if (pub.k >= shape.partitions)
    return fail("k", fmt::format("partition {} of a {}-partition sector", pub.k, shape.partitions));
  try {
    (void)shape.k_and_h_select(pub.k, pub.h);
  } catch (const std::invalid_argument& e) {
    return fail("h", e.what());
  }
  if (auto f = check_snap_shape(shape, proof)) return f;
  const std::vector<unsigned> r_arities = shape.tree_r_arities(), d_arities = tree_d_arities(shape);
  // Roots: every Tree R opening states the first one's (upstream takes
  // challenge_proofs[0]'s), Tree D's is comm_d_new.
  const ff::fr_t root_r_old = proof.challenges[0].r_old.root, root_r_new = proof.challenges[0].r_new.root;
  for (std::size_t i = 0; i < proof.challenges.size(); ++i) {
    const auto& c = proof.challenges[i];
    if (c.r_old.root != root_r_old)
      return fail(opening_name(i, "proof_r_old.root"), "differs from challenge_proofs[0]'s root_r_old");
    if (c.r_new.root != root_r_new)
      return fail(opening_name(i, "proof_r_new.root"), "differs from challenge_proofs[0]'s root_r_new");
    if (c.d_new.root != pub.comm_d_new) return fail(opening_name(i, "proof_d_new.root"), "is not comm_d_new");
  }
  const bool old_ok = hash2(proof.comm_c, root_r_old) == pub.comm_r_old;
  const bool new_ok = hash2(proof.comm_c, root_r_new) == pub.comm_r_new;
  if (!old_ok && !new_ok) return fail("comm_c", "Poseidon(comm_c, root) matches neither comm_r_old nor comm_r_new");
  if (!old_ok) return fail("challenge_proofs[0].proof_r_old.root", "Poseidon(comm_c, root_r_old) is not comm_r_old");
  if (!new_ok) return fail("challenge_proofs[0].proof_r_new.root", "Poseidon(comm_c, root_r_new) is not comm_r_new");

  const ff::fr_t phi = snap_phi(pub.comm_d_new, pub.comm_r_old);
  const std::vector<std::uint32_t> challenges = snap_challenges(shape, pub.comm_r_new, pub.k);
  const unsigned shr = shape.challenge_bit_len - pub.h, height = shape.apex_height();
  path_hasher_t r_hasher(tree_hash_t::poseidon), d_hasher(tree_hash_t::sha256);
  for (std::size_t i = 0; i < challenges.size(); ++i) {
    const auto& c = proof.challenges[i];
    const std::uint32_t want = challenges[i];
    for (auto [o, name] : {std::pair{&c.r_old, "proof_r_old"}, std::pair{&c.d_new, "proof_d_new"},
                           std::pair{&c.r_new, "proof_r_new"}})
      if (o->leaf_index != want)
        return fail(opening_name(i, name), fmt::format("opens leaf {}, challenge {} of partition {} is {}",
                                                       o->leaf_index, i, pub.k, want));
    if (r_hasher.root(r_arities, want, c.r_old.leaf, c.r_old.path) != root_r_old)
      return fail(opening_name(i, "proof_r_old"), fmt::format("leaf {} and its path do not hash to root_r_old", want));
    if (d_hasher.root(d_arities, want, c.d_new.leaf, c.d_new.path) != pub.comm_d_new)
      return fail(opening_name(i, "proof_d_new"), fmt::format("leaf {} and its path do not hash to comm_d_new", want));
    if (r_hasher.root(r_arities, want, c.r_new.leaf, c.r_new.path) != root_r_new)
      return fail(opening_name(i, "proof_r_new"), fmt::format("leaf {} and its path do not hash to root_r_new", want));
    if (c.r_new.leaf != c.r_old.leaf + c.d_new.leaf * snap_rho(phi, want >> shr))
      return fail(opening_name(i, "proof_r_new.leaf"),
                  fmt::format("is not the encoding of leaf {}: old + data * rho(high {})", want, want >> shr));
    // The node at the apex row this path passes through is the apex leaf the circuit selects.
    ff::fr_t node = c.d_new.leaf;
    for (unsigned l = 0; l < height; ++l) {
      const auto& sib = c.d_new.path.siblings[l][0];
      const ff::fr_t pair[2] = {((want >> l) & 1) ? sib : node, ((want >> l) & 1) ? node : sib};
      node = hash_children(tree_hash_t::sha256, pair);
    }
    const std::uint32_t apex = (want >> height) & (shape.apex_leaves - 1);
    if (node != proof.apex_leaves[apex])
      return fail(at("apex_leafs", apex), fmt::format("is not the node challenge {} (leaf {}) passes at Tree D row {}",
                                                      i, want, height));
    // Every challenge shares partition 0's path above the apex tree.
    for (unsigned l = height + shape.apex_leaf_bit_len; l < shape.challenge_bit_len; ++l)
      if (c.d_new.path.siblings[l] != proof.challenges[0].d_new.path.siblings[l])
        return fail(fmt::format("{}.path[{}]", opening_name(i, "proof_d_new"), l),
                    "differs from challenge_proofs[0]'s partition path");
  }
  // The apex tree over all apex leaves, then the partition path, reach comm_d_new.
  std::vector<ff::fr_t> row = proof.apex_leaves;
  while (row.size() > 1) {
    std::vector<ff::fr_t> up(row.size() / 2);
    for (std::size_t j = 0; j < up.size(); ++j)
      up[j] = hash_children(tree_hash_t::sha256, std::span(row.data() + 2 * j, 2));
    row = std::move(up);
  }
  ff::fr_t node = row[0];
  for (unsigned l = height + shape.apex_leaf_bit_len, b = 0; l < shape.challenge_bit_len; ++l, ++b) {
    const auto& sib = proof.challenges[0].d_new.path.siblings[l][0];
    const ff::fr_t pair[2] = {((pub.k >> b) & 1) ? sib : node, ((pub.k >> b) & 1) ? node : sib};
    node = hash_children(tree_hash_t::sha256, pair);
  }
  if (node != pub.comm_d_new)
    return fail("apex_leafs", "the apex tree of these leaves, with the partition path, does not hash to comm_d_new");
  return std::nullopt;
}

}  // namespace cuzk::porep
