#include "filecoin/snap_bincode.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

#include "filecoin/bincode_reader_t.hpp"
#include "filecoin/bincode_writer_t.hpp"
#include "filecoin/registered_seal_proof_t.hpp"

namespace cuzk::filecoin {

using porep::vanilla_format_error;

namespace {

// A partition's two kinds of tree as their MerkleProofs are shaped.
struct tree_shape_t {
  const char* name;               // "Tree R", "Tree D"
  std::vector<unsigned> arities;  // leaf to root
  merkle_proof_tag_t tag;
};

// Trees R old and R new: Poseidon, base arity 8, the size's sub/top arities.
tree_shape_t tree_r(const porep::snap_shape_t& s) {
  return {"Tree R", s.tree_r_arities(), merkle_proof_tag(s.sub_arity, s.top_arity)};
}
// Tree D new: binary SHA-256 (MerkleProof<Sha256, U2> has no sub or top tree).
tree_shape_t tree_d(const porep::snap_shape_t& s) {
  return {"Tree D", std::vector<unsigned>(s.challenge_bit_len, 2u), merkle_proof_tag_t::single};
}

std::string idx(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

class snap_reader_t {
 public:
  snap_reader_t(std::span<const std::uint8_t> b, const porep::snap_shape_t& shape)
      : r_(b), shape_(shape), size_(sector_size_name(shape.sector_bytes)), r_tree_(tree_r(shape)),
        d_tree_(tree_d(shape)) {}

  porep::snap_partition_proof_t read() {
    porep::snap_partition_proof_t p;
    p.comm_c = domain("comm_c");
    exact_len("apex_leafs", shape_.apex_leaves, "apex leaves");
    for (unsigned i = 0; i < shape_.apex_leaves; ++i) p.apex_leaves.push_back(domain(idx("apex_leafs", i)));
    exact_len("challenge_proofs", shape_.challenges, "challenge proofs");
    p.challenges.reserve(shape_.challenges);
    for (unsigned i = 0; i < shape_.challenges; ++i) {
      const std::string cw = idx("challenge_proofs", i);
      auto& c = p.challenges.emplace_back();
      c.r_old = merkle_proof(cw + ".proof_r_old", r_tree_);
      c.d_new = merkle_proof(cw + ".proof_d_new", d_tree_);
      c.r_new = merkle_proof(cw + ".proof_r_new", r_tree_);
    }
    if (r_.left())
      throw vanilla_format_error("PartitionProof",
                                 fmt::format("{} bytes after challenge_proofs (at byte {})", r_.left(), r_.at()));
    return p;
  }

 private:
  ff::fr_t domain(const std::string& where) { return r_.domain(where); }

  // Every count is fixed by the shape, so nothing is allocated for a corrupt one.
  void exact_len(const std::string& where, std::uint64_t expected, const std::string& what) {
    const std::size_t at = r_.at();
    const std::uint64_t n = r_.u64(where);
    if (n != expected)
      throw vanilla_format_error(where, fmt::format("a length of {} at byte {}: {} sectors take {} {}", n, at, size_,
                                                    expected, what));
  }

  // One InclusionPath into path levels [part.from, part.from + part.n), and
  // its indices into the leaf index (digits in the radix of the arities).
  void inclusion_path(const std::string& where, const merkle_path_part_t& part, const tree_shape_t& tree,
                      porep::snap_opening_t& o, std::uint64_t& weight) {
    const std::string pw = where + ".path";
    exact_len(pw, part.n, "levels here");
    for (std::size_t k = 0; k < part.n; ++k) {
      const std::size_t l = part.from + k;
      const unsigned a = tree.arities[l];
      const std::string ew = idx(pw, k);
      exact_len(ew + ".hashes", a - 1, fmt::format("siblings at {} level {} (arity {})", tree.name, l, a));
      auto& sib = o.path.siblings[l];
      for (unsigned h = 0; h + 1 < a; ++h) sib.push_back(domain(idx(ew + ".hashes", h)));
      const std::size_t at = r_.at();
      const std::uint64_t index = r_.u64(ew + ".index");
      if (index >= a)
        throw vanilla_format_error(ew + ".index", fmt::format("{} at byte {} is not a slot of an arity-{} level", index,
                                                              at, a));
      o.leaf_index += index * weight;
      weight *= a;
    }
  }

  porep::snap_opening_t merkle_proof(const std::string& where, const tree_shape_t& tree) {
    const std::string dw = where + ".data";
    const std::size_t at = r_.at();
    const std::uint64_t tag = r_.u32(dw);
    if (tag != std::uint32_t(tree.tag))
      throw vanilla_format_error(dw, fmt::format("ProofData tag {} at byte {}: a {} proof of {} sectors is {} (tag {}; 0 "
                                                 "Single, 1 Sub, 2 Top)",
                                                 tag, at, tree.name, size_, merkle_proof_variant(tree.tag),
                                                 std::uint32_t(tree.tag)));
    const std::string vw = dw + "." + merkle_proof_variant(tree.tag);
    porep::snap_opening_t o;
    o.path.siblings.resize(tree.arities.size());
    auto read_root_leaf = [&] {
      o.root = domain(vw + ".root");
      o.leaf = domain(vw + ".leaf");
    };
    if (tree.tag == merkle_proof_tag_t::single) read_root_leaf();
    std::uint64_t weight = 1;
    for (const auto& part : merkle_path_parts(tree.tag, tree.arities.size()))
      inclusion_path(vw + "." + part.field, part, tree, o, weight);
    if (tree.tag != merkle_proof_tag_t::single) read_root_leaf();
    return o;
  }

  bincode_reader_t r_;
  const porep::snap_shape_t& shape_;
  std::string size_;  // "32GiB", for messages
  tree_shape_t r_tree_, d_tree_;
};

void write_opening(bincode_writer_t& w, const porep::snap_opening_t& o, const tree_shape_t& tree,
                   const porep::snap_shape_t& shape, const std::string& where) {
  const std::size_t levels = tree.arities.size();
  if (o.leaf_index >= shape.nodes || o.path.siblings.size() != levels)
    throw std::invalid_argument(fmt::format("write_snap_partition_bincode: {}: leaf {} with a path of {} levels does "
                                            "not fit the {} of {} sectors ({} leaves, {} levels)",
                                            where, o.leaf_index, o.path.siblings.size(), tree.name,
                                            sector_size_name(shape.sector_bytes), shape.nodes, levels));
  for (std::size_t l = 0; l < levels; ++l)
    if (o.path.siblings[l].size() + 1 != tree.arities[l])
      throw std::invalid_argument(fmt::format("write_snap_partition_bincode: {}: {} siblings at {} level {}, arity {}",
                                              where, o.path.siblings[l].size(), tree.name, l, tree.arities[l]));
  w.merkle_proof(tree.tag, tree.arities, o.path, o.leaf_index, o.root, o.leaf);
}

std::uint64_t merkle_proof_bytes(const tree_shape_t& tree) {
  std::uint64_t n = 4 + 32 + 32;  // tag, root, leaf
  for (const auto& part : merkle_path_parts(tree.tag, tree.arities.size())) {
    n += 8;  // path length
    for (std::size_t l = part.from; l < part.from + part.n; ++l)
      n += 8 + 32 * std::uint64_t(tree.arities[l] - 1) + 8;  // hashes length, hashes, index
  }
  return n;
}

}  // namespace

porep::snap_partition_proof_t read_snap_partition_bincode(std::span<const std::uint8_t> bytes,
                                                          const porep::snap_shape_t& shape) {
  return snap_reader_t(bytes, shape).read();
}

std::string write_snap_partition_bincode(const porep::snap_partition_proof_t& p, const porep::snap_shape_t& shape) {
  if (p.apex_leaves.size() != shape.apex_leaves || p.challenges.size() != shape.challenges)
    throw std::invalid_argument(fmt::format("write_snap_partition_bincode: {} apex leaves and {} challenges, {} "
                                            "sectors take {} and {}",
                                            p.apex_leaves.size(), p.challenges.size(),
                                            sector_size_name(shape.sector_bytes), shape.apex_leaves, shape.challenges));
  const tree_shape_t r = tree_r(shape), d = tree_d(shape);
  bincode_writer_t w;
  w.out.reserve(snap_partition_bincode_size(shape));
  w.domain(p.comm_c);
  w.uint(p.apex_leaves.size(), 8);
  for (const auto& x : p.apex_leaves) w.domain(x);
  w.uint(p.challenges.size(), 8);
  for (std::size_t i = 0; i < p.challenges.size(); ++i) {
    const auto& c = p.challenges[i];
    const std::string cw = idx("challenge_proofs", i);
    write_opening(w, c.r_old, r, shape, cw + ".proof_r_old");
    write_opening(w, c.d_new, d, shape, cw + ".proof_d_new");
    write_opening(w, c.r_new, r, shape, cw + ".proof_r_new");
  }
  return std::move(w.out);
}

std::uint64_t snap_partition_bincode_size(const porep::snap_shape_t& shape) {
  const std::uint64_t challenge = 2 * merkle_proof_bytes(tree_r(shape)) + merkle_proof_bytes(tree_d(shape));
  // comm_c, apex_leafs length and leaves, challenge_proofs length and proofs.
  return 32 + 8 + 32 * std::uint64_t(shape.apex_leaves) + 8 + shape.challenges * challenge;
}

}  // namespace cuzk::filecoin
