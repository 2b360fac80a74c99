#include "circuits/porep_circuit_shape_t.hpp"

#include <bit>
#include <stdexcept>

namespace cuzk::circuits {

unsigned porep_circuit_shape_t::tree_cr_index_bits() const {
  unsigned bits = 0;
  for (unsigned a : tree_cr_arities) bits += unsigned(std::countr_zero(a));
  return bits;
}

porep_circuit_shape_t porep_circuit_shape_t::for_sector(const porep::sector_params_t& p) {
  porep_circuit_shape_t s;
  const std::uint64_t kib = 1024;
  std::uint64_t b = p.sector_bytes;
  s.name = b >= kib * kib * kib ? std::to_string(b >> 30) + "GiB"
           : b >= kib * kib     ? std::to_string(b >> 20) + "MiB"
                                : std::to_string(b >> 10) + "KiB";
  s.nodes = p.nodes;
  s.layers = p.layers;
  s.challenges = p.challenges_per_partition;
  s.tree_d_depth = p.tree_d_depth;
  s.tree_cr_arities = p.tree_cr_arities();
  return s;
}

porep_circuit_shape_t porep_circuit_shape_t::test_shape(unsigned base_arity, unsigned sub_arity, unsigned top_arity) {
  auto supported = [](unsigned a) { return a == 2 || a == 8; };
  if (!supported(base_arity) || (sub_arity && !supported(sub_arity)) || (top_arity && !supported(top_arity))) {
    throw std::invalid_argument("porep test shape " + std::to_string(base_arity) + "-" + std::to_string(sub_arity) +
                                "-" + std::to_string(top_arity) +
                                ": only Poseidon arities 2 and 8 have Merkle gadgets");
  }
  porep_circuit_shape_t s;
  s.name = std::to_string(base_arity) + "-" + std::to_string(sub_arity) + "-" + std::to_string(top_arity);
  // Upstream's test: a base tree of 8 leaves (binary: 3 levels, 8-ary: 1).
  for (std::uint64_t n = 8; n > 1; n /= base_arity) s.tree_cr_arities.push_back(base_arity);
  s.nodes = 8;
  if (sub_arity) s.tree_cr_arities.push_back(sub_arity), s.nodes *= sub_arity;
  if (top_arity) s.tree_cr_arities.push_back(top_arity), s.nodes *= top_arity;
  s.name += "/" + std::to_string(s.nodes);
  s.layers = 2;
  s.challenges = 1;
  s.tree_d_depth = unsigned(std::countr_zero(s.nodes));
  return s;
}

}  // namespace cuzk::circuits
