#pragma once
// Writes bincode 1.x with its default options (FILECOIN_FORMATS.md §1), and
// rust-fil-proofs' MerkleProof (storage-proofs-core merkle/proof.rs) from our
// leaf-to-root merkle_path_t: ProofData tag u32 (0 Single {root, leaf, path},
// 1 Sub {base_proof, sub_proof, root, leaf}, 2 Top {base_proof, sub_proof,
// top_proof, root, leaf}); InclusionPath {path: Vec<PathElement>};
// PathElement {hashes: Vec<domain>, index: usize as u64}; the sub and top
// proofs hold one level each. Shared by the C1, PoSt and SnapDeals writers.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "porep/domain.hpp"
#include "porep/merkle.hpp"
#include "porep/sector_params_t.hpp"

namespace cuzk::filecoin {

enum class merkle_proof_tag_t : std::uint32_t { single = 0, sub = 1, top = 2 };

// The variant a proof of a tree with these sub and top arities takes (0 for
// none): 8-0-0 Single, 8-8-0 Sub, 8-8-2 Top (MerkleProof::try_from_proof
// picks it from the tree). SnapDeals' test sizes give other shapes than
// PoRep's (1 KiB 8-4-0 is Sub), so its reader asks by arities.
inline merkle_proof_tag_t merkle_proof_tag(unsigned sub_arity, unsigned top_arity) {
  return top_arity ? merkle_proof_tag_t::top : sub_arity ? merkle_proof_tag_t::sub : merkle_proof_tag_t::single;
}
// The variant a Tree C / Tree R proof of this PoRep shape takes.
inline merkle_proof_tag_t merkle_proof_tag(const porep::sector_params_t& p) {
  return merkle_proof_tag(p.sub_arity, p.top_arity);
}

// Levels of the base path: all but the sub and top levels.
inline std::size_t merkle_base_levels(merkle_proof_tag_t tag, std::size_t levels) {
  return levels - (tag == merkle_proof_tag_t::top ? 2 : tag == merkle_proof_tag_t::sub ? 1 : 0);
}

// The variant's name as serde writes it ("Single", "Sub", "Top").
inline const char* merkle_proof_variant(merkle_proof_tag_t tag) {
  return tag == merkle_proof_tag_t::top ? "Top" : tag == merkle_proof_tag_t::sub ? "Sub" : "Single";
}

// The InclusionPaths of a variant in serialization order: each one's field
// and the tree levels [from, from + n) it holds.
struct merkle_path_part_t {
  const char* field;
  std::size_t from, n;
};
inline std::vector<merkle_path_part_t> merkle_path_parts(merkle_proof_tag_t tag, std::size_t levels) {
  const std::size_t base = merkle_base_levels(tag, levels);
  switch (tag) {
    case merkle_proof_tag_t::single: return {{"path", 0, levels}};
    case merkle_proof_tag_t::sub: return {{"base_proof", 0, base}, {"sub_proof", base, 1}};
    case merkle_proof_tag_t::top: return {{"base_proof", 0, base}, {"sub_proof", base, 1}, {"top_proof", base + 1, 1}};
  }
  return {};
}

class bincode_writer_t {
 public:
  std::string out;

  void uint(std::uint64_t v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out += char(std::uint8_t(v >> (8 * i)));
  }
  void domain(const ff::fr_t& x) {
    const auto b = porep::to_le_bytes(x);
    out.append(reinterpret_cast<const char*>(b.data()), b.size());
  }
  void domain(const porep::bytes32_t& b) { out.append(reinterpret_cast<const char*>(b.data()), b.size()); }

  // Levels [from, from + n) of `path` as one InclusionPath.
  void inclusion_path(const porep::merkle_path_t& path, std::span<const unsigned> slots, std::size_t from,
                      std::size_t n) {
    uint(n, 8);
    for (std::size_t l = from; l < from + n; ++l) {
      uint(path.siblings[l].size(), 8);
      for (const auto& x : path.siblings[l]) domain(x);
      uint(slots[l], 8);
    }
  }

  void merkle_proof(merkle_proof_tag_t tag, std::span<const unsigned> arities, const porep::merkle_path_t& p,
                    std::uint64_t node, const ff::fr_t& root, const ff::fr_t& leaf) {
    const auto slots = porep::path_slots(arities, node);
    uint(std::uint32_t(tag), 4);
    if (tag == merkle_proof_tag_t::single) {
      domain(root), domain(leaf), inclusion_path(p, slots, 0, arities.size());
      return;
    }
    const std::size_t base = merkle_base_levels(tag, arities.size());
    inclusion_path(p, slots, 0, base);
    inclusion_path(p, slots, base, 1);
    if (tag == merkle_proof_tag_t::top) inclusion_path(p, slots, base + 1, 1);
    domain(root), domain(leaf);
  }
};

}  // namespace cuzk::filecoin
