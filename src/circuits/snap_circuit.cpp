#include "circuits/snap_circuit.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "porep/snap_vanilla.hpp"
#include "r1cs/shape_cs.hpp"

namespace cuzk::circuits {

using ff::fr_t;

namespace {

std::string size_text(std::uint64_t b) {
  if (b >= (std::uint64_t(1) << 30)) return fmt::format("{}GiB", b >> 30);
  if (b >= (std::uint64_t(1) << 20)) return fmt::format("{}MiB", b >> 20);
  return fmt::format("{}KiB", b >> 10);
}

}  // namespace

snap_circuit::snap_circuit(porep::snap_shape_t shape) : shape_(std::move(shape)) {}

snap_circuit::snap_circuit(porep::snap_shape_t shape, std::shared_ptr<const snap_witness_t> witness)
    : snap_circuit(std::move(shape)) {
  if (!witness) throw std::invalid_argument("snap circuit: null witness");
  const auto& s = shape_;
  const auto& p = witness->proof;
  (void)s.k_and_h_select(witness->pub.k, witness->pub.h);  // throws naming k or h
  if (auto bad = porep::check_snap_shape(s, p))
    throw std::invalid_argument(fmt::format("snap witness: {}: {}", bad->element, bad->reason));
  witness_ = std::move(witness);
}

std::vector<fr_t> snap_circuit::public_inputs(const porep::snap_shape_t& shape, const porep::snap_public_t& pub) {
  return {fr_t::from_u64(shape.k_and_h_select(pub.k, pub.h)), pub.comm_r_old, pub.comm_d_new, pub.comm_r_new};
}

std::vector<fr_t> snap_circuit::public_inputs() const {
  if (!witness_) throw std::logic_error("snap circuit: public inputs need a witness");
  return public_inputs(shape_, witness_->pub);
}

std::string snap_circuit::description() const {
  const auto& s = shape_;
  std::string arities;
  for (unsigned a : s.tree_r_arities()) arities += (arities.empty() ? "" : ",") + std::to_string(a);
  return fmt::format("snap {}: one of {} partitions, {} challenges, {} apex leaves, Tree R arities [{}], SHA-256 "
                     "Tree D",
                     size_text(s.sector_bytes), s.partitions, s.challenges, s.apex_leaves, arities);
}

r1cs::shape_counts_t snap_circuit::counts() const {
  r1cs::shape_cs cs;
  synthesize(cs);
  return cs.counts();
}

}  // namespace cuzk::circuits
