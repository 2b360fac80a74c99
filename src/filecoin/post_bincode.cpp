#include "filecoin/post_bincode.hpp"

#include <fmt/format.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "filecoin/bincode_reader_t.hpp"
#include "filecoin/bincode_writer_t.hpp"
#include "porep/post_shape.hpp"

namespace cuzk::filecoin {

using porep::vanilla_format_error;

namespace {

std::string idx(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

class post_reader_t {
 public:
  post_reader_t(std::span<const std::uint8_t> b, const registered_post_proof_t& proof)
      : r_(b), proof_(proof), shape_(proof.shape()), arities_(shape_.sector.tree_cr_arities()),
        tag_(merkle_proof_tag(shape_.sector)) {}

  porep::post_sector_proof_t read() {
    porep::post_sector_proof_t s;
    s.sector_id = r_.u64("sector_id");
    s.comm_r = domain("comm_r");
    const std::string vw = "vanilla_proof.sectors";
    exact_len(vw, 1, "SectorProof (generate_single_vanilla_proof proves one sector)");
    const std::string sw = vw + "[0]";
    const std::string iw = sw + ".inclusion_proofs";
    exact_len(iw, shape_.challenges_per_sector, fmt::format("inclusion proofs ({} PoSt: one per challenge)",
                                                            porep::to_string(shape_.kind)));
    std::vector<root_t> roots;
    for (unsigned j = 0; j < shape_.challenges_per_sector; ++j)
      s.challenges.push_back(merkle_proof(idx(iw, j), roots.emplace_back()));
    s.comm_c = domain(sw + ".comm_c");
    const std::size_t comm_r_last_at = r_.at();
    s.comm_r_last = domain(sw + ".comm_r_last");
    if (r_.left())
      throw vanilla_format_error("FallbackPoStSectorProof",
                                 fmt::format("{} bytes after comm_r_last (at byte {})", r_.left(), r_.at()));
    check_roots(roots, s.comm_r_last, comm_r_last_at, sw);
    return s;
  }

 private:
  struct root_t {
    ff::fr_t value;
    std::size_t at = 0;
    std::string where;
  };

  ff::fr_t domain(const std::string& where) { return r_.domain(where); }

  void exact_len(const std::string& where, std::uint64_t expected, const std::string& what) {
    const std::size_t at = r_.at();
    const std::uint64_t n = r_.u64(where);
    if (n != expected)
      throw vanilla_format_error(where, fmt::format("a length of {} at byte {}: {} takes {} {}", n, at, proof_.name(),
                                                    expected, what));
  }

  // Reads one InclusionPath into path levels [part.from, part.from + part.n)
  // and the matching digits of the leaf index.
  void inclusion_path(const std::string& where, const merkle_path_part_t& part, porep::post_challenge_proof_t& c,
                      std::uint64_t& leaf_index, std::uint64_t& weight) {
    const std::string pw = where + ".path";
    exact_len(pw, part.n, "levels here");
    for (std::size_t k = 0; k < part.n; ++k) {
      const std::size_t l = part.from + k;
      const unsigned a = arities_[l];
      const std::string ew = idx(pw, k);
      exact_len(ew + ".hashes", a - 1, fmt::format("siblings at tree level {} (arity {})", l, a));
      auto& sib = c.path.siblings[l];
      for (unsigned h = 0; h + 1 < a; ++h) sib.push_back(domain(idx(ew + ".hashes", h)));
      const std::size_t at = r_.at();
      const std::uint64_t index = r_.u64(ew + ".index");
      if (index >= a)
        throw vanilla_format_error(ew + ".index", fmt::format("{} at byte {} is not a slot of an arity-{} level", index,
                                                              at, a));
      leaf_index += index * weight;
      weight *= a;
    }
  }

  porep::post_challenge_proof_t merkle_proof(const std::string& where, root_t& root) {
    const std::string dw = where + ".data";
    const std::size_t at = r_.at();
    const std::uint64_t tag = r_.u32(dw);
    if (tag != std::uint32_t(tag_))
      throw vanilla_format_error(
          dw, fmt::format("ProofData tag {} at byte {}: a {} Tree R proof is {} (tag {}; 0 Single, 1 Sub, 2 Top)", tag,
                          at, proof_.name(), merkle_proof_variant(tag_), std::uint32_t(tag_)));
    const std::string bw = dw + "." + merkle_proof_variant(merkle_proof_tag_t(tag));
    porep::post_challenge_proof_t c;
    c.path.siblings.resize(arities_.size());
    std::uint64_t weight = 1;
    auto read_root_leaf = [&] {
      root.at = r_.at();
      root.where = bw + ".root";
      root.value = domain(root.where);
      c.leaf = domain(bw + ".leaf");
    };
    if (tag_ == merkle_proof_tag_t::single) read_root_leaf();
    for (const auto& part : merkle_path_parts(tag_, arities_.size()))
      inclusion_path(bw + "." + part.field, part, c, c.leaf_index, weight);
    if (tag_ != merkle_proof_tag_t::single) read_root_leaf();
    return c;
  }

  // Every proof's root is comm_r_last (the circuit takes comm_r_last from the
  // SectorProof, upstream's verifier from inclusion_proofs[0].root()). When
  // all roots agree and comm_r_last alone differs, it is the one named.
  void check_roots(const std::vector<root_t>& roots, const ff::fr_t& comm_r_last, std::size_t comm_r_last_at,
                   const std::string& sw) {
    const root_t* bad = nullptr;
    bool agree = true;
    for (const auto& r : roots) {
      if (!bad && r.value != comm_r_last) bad = &r;
      agree = agree && r.value == roots[0].value;
    }
    if (!bad) return;
    if (agree && roots.size() > 1)
      throw vanilla_format_error(sw + ".comm_r_last", fmt::format("at byte {} differs from the root every inclusion "
                                                                  "proof states",
                                                                  comm_r_last_at));
    throw vanilla_format_error(bad->where, fmt::format("at byte {} differs from comm_r_last", bad->at));
  }

  bincode_reader_t r_;
  const registered_post_proof_t& proof_;
  porep::post_shape_t shape_;
  std::vector<unsigned> arities_;
  merkle_proof_tag_t tag_;
};

}  // namespace

porep::post_sector_proof_t read_post_sector_bincode(std::span<const std::uint8_t> bytes,
                                                    const registered_post_proof_t& proof) {
  return post_reader_t(bytes, proof).read();
}

std::string write_post_sector_bincode(const porep::post_sector_proof_t& s, const registered_post_proof_t& proof) {
  const auto shape = proof.shape();
  const auto arities = shape.sector.tree_cr_arities();
  const auto tag = merkle_proof_tag(shape.sector);
  if (s.challenges.size() != shape.challenges_per_sector)
    throw std::invalid_argument(fmt::format("write_post_sector_bincode: {} challenges, {} takes {}",
                                            s.challenges.size(), proof.name(), shape.challenges_per_sector));
  bincode_writer_t w;
  w.out.reserve(post_sector_bincode_size(proof));
  w.uint(s.sector_id, 8);
  w.domain(s.comm_r);
  w.uint(1, 8);
  w.uint(s.challenges.size(), 8);
  for (const auto& c : s.challenges) {
    if (c.leaf_index >= shape.sector.nodes || c.path.siblings.size() != arities.size())
      throw std::invalid_argument(fmt::format("write_post_sector_bincode: leaf {} with a path of {} levels does not "
                                              "fit {} ({} leaves, {} levels)",
                                              c.leaf_index, c.path.siblings.size(), proof.name(), shape.sector.nodes,
                                              arities.size()));
    for (std::size_t l = 0; l < arities.size(); ++l)
      if (c.path.siblings[l].size() != arities[l] - 1)
        throw std::invalid_argument(fmt::format("write_post_sector_bincode: {} siblings at level {}, arity {}",
                                                c.path.siblings[l].size(), l, arities[l]));
    w.merkle_proof(tag, arities, c.path, c.leaf_index, s.comm_r_last, c.leaf);
  }
  w.domain(s.comm_c);
  w.domain(s.comm_r_last);
  return std::move(w.out);
}

std::uint64_t post_sector_bincode_size(const registered_post_proof_t& proof) {
  const auto shape = proof.shape();
  const auto arities = shape.sector.tree_cr_arities();
  const auto tag = merkle_proof_tag(shape.sector);
  std::uint64_t merkle = 4 + 32 + 32;  // tag, root, leaf
  for (const auto& part : merkle_path_parts(tag, arities.size())) {
    merkle += 8;  // path length
    for (std::size_t l = part.from; l < part.from + part.n; ++l) merkle += 8 + 32 * (arities[l] - 1) + 8;
  }
  // sector_id, comm_r, sectors length; inclusion_proofs length, proofs, comm_c, comm_r_last.
  return 8 + 32 + 8 + 8 + shape.challenges_per_sector * merkle + 32 + 32;
}

}  // namespace cuzk::filecoin
