#include "circuits/post_circuit.hpp"

#include <stdexcept>

#include "circuits/post_public_inputs.hpp"
#include "porep/merkle.hpp"
#include "r1cs/shape_cs.hpp"

namespace cuzk::circuits {

using ff::fr_t;

post_circuit::post_circuit(porep::post_shape_t shape)
    : shape_(std::move(shape)), params_(post_circuit_params(shape_)), arities_(shape_.sector.tree_cr_arities()) {
  const auto& sp = shape_.sector;
  if (sp.top_arity && !sp.sub_arity) throw std::invalid_argument("post circuit: a top level needs a sub level");
  base_levels_ = arities_.size() - (sp.sub_arity ? 1 : 0) - (sp.top_arity ? 1 : 0);
  if (porep::tree_leaves(arities_) != sp.nodes) {
    throw std::invalid_argument("post circuit: the tree's arities cover " + std::to_string(porep::tree_leaves(arities_)) +
                                " leaves, the sector has " + std::to_string(sp.nodes));
  }
  for (unsigned a : arities_) {
    if (a != 2 && a != 4 && a != 8)
      throw std::invalid_argument("post circuit: Tree R arity " + std::to_string(a) + " has no insertion gadget");
  }
  if (shape_.kind == porep::post_kind_t::winning && shape_.sectors_per_partition != 1) {
    throw std::invalid_argument("post circuit: Winning PoSt proves one sector, the shape has " +
                                std::to_string(shape_.sectors_per_partition));
  }
}

post_circuit::post_circuit(porep::post_shape_t shape, std::shared_ptr<const witness_t> witness)
    : post_circuit(std::move(shape)) {
  if (!witness) throw std::invalid_argument("post circuit: null witness");
  witness_ = std::move(witness);
  check_witness();
}

void post_circuit::check_witness() const {
  const witness_t& w = *witness_;
  if (w.empty() || w.size() > shape_.sectors_per_partition) {
    throw std::invalid_argument("post witness: " + std::to_string(w.size()) + " sectors, the partition takes 1 to " +
                                std::to_string(shape_.sectors_per_partition));
  }
  for (std::size_t i = 0; i < w.size(); ++i) {
    const auto& s = w[i];
    const std::string at = "post witness: sector " + std::to_string(i) + " (id " + std::to_string(s.sector_id) + ")";
    if (s.challenges.size() != shape_.challenges_per_sector) {
      throw std::invalid_argument(at + " has " + std::to_string(s.challenges.size()) + " challenges, the circuit needs " +
                                  std::to_string(shape_.challenges_per_sector));
    }
    for (std::size_t n = 0; n < s.challenges.size(); ++n) {
      const auto& c = s.challenges[n];
      const std::string cat = at + " challenge " + std::to_string(n);
      if (c.leaf_index >= shape_.sector.nodes) {
        throw std::invalid_argument(cat + ": leaf " + std::to_string(c.leaf_index) + " is not below " +
                                    std::to_string(shape_.sector.nodes));
      }
      if (c.path.siblings.size() != arities_.size()) {
        throw std::invalid_argument(cat + ": path has " + std::to_string(c.path.siblings.size()) + " levels, Tree R " +
                                    std::to_string(arities_.size()));
      }
      for (std::size_t l = 0; l < arities_.size(); ++l) {
        if (c.path.siblings[l].size() + 1 != arities_[l]) {
          throw std::invalid_argument(cat + ": path level " + std::to_string(l) + " has " +
                                      std::to_string(c.path.siblings[l].size()) + " siblings, arity " +
                                      std::to_string(arities_[l]) + " needs " + std::to_string(arities_[l] - 1));
        }
      }
    }
  }
}

post_circuit::block_source_t post_circuit::source(unsigned block) const {
  if (!witness_) return {};
  const witness_t& w = *witness_;
  if (shape_.kind == porep::post_kind_t::winning) return {&w[0], block * params_.challenge_count};
  return {&w[std::min<std::size_t>(block, w.size() - 1)], 0};
}

std::vector<fr_t> post_circuit::public_inputs() const {
  if (!witness_) throw std::logic_error("post circuit: public inputs need a witness");
  const auto sectors = post_public_sectors(*witness_);
  return post_public_inputs(shape_, sectors);
}

r1cs::shape_counts_t post_circuit::block_counts() const {
  r1cs::shape_cs cs;
  synthesize_block(cs, 0);
  return {cs.num_constraints(), cs.num_inputs() - 1, cs.num_aux()};
}

r1cs::shape_counts_t post_circuit::counts() const {
  const r1cs::shape_counts_t b = block_counts();
  const std::size_t n = params_.sector_count;
  return {n * b.num_constraints, 1 + n * b.num_inputs, n * b.num_aux};
}

std::string post_circuit::description() const {
  std::string arities;
  for (unsigned a : arities_) {
    if (!arities.empty()) arities += ',';
    arities += std::to_string(a);
  }
  const auto b = shape_.sector.sector_bytes;
  const std::string size = b >= (std::uint64_t(1) << 30) ? std::to_string(b >> 30) + "GiB"
                           : b >= (std::uint64_t(1) << 20) ? std::to_string(b >> 20) + "MiB"
                                                           : std::to_string(b >> 10) + "KiB";
  auto count = [](unsigned n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
  return post_kind_name(shape_.kind) + " " + size + ": one partition of " + count(params_.sector_count, "sector block") +
         " x " + count(params_.challenge_count, "challenge") + " (" + count(shape_.sectors_per_partition, "sector") +
         " x " + count(shape_.challenges_per_sector, "challenge") + " proven), Tree R arities [" + arities + "]";
}

}  // namespace cuzk::circuits
