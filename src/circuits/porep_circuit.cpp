#include "circuits/porep_circuit.hpp"

#include <stdexcept>

namespace cuzk::circuits {

using ff::fr_t;

porep_circuit::porep_circuit(porep_circuit_shape_t shape) : shape_(std::move(shape)) {}

porep_circuit::porep_circuit(porep_circuit_shape_t shape, std::shared_ptr<const porep_partition_witness_t> witness)
    : shape_(std::move(shape)), witness_(std::move(witness)) {
  if (!witness_) throw std::invalid_argument("porep_circuit: null witness");
  check_witness();
}

namespace {

void expect_count(std::size_t have, std::size_t want, const std::string& what) {
  if (have != want) {
    throw std::invalid_argument("porep witness: " + what + " has " + std::to_string(have) + " elements, the " +
                                "circuit needs " + std::to_string(want));
  }
}

}  // namespace

void porep_circuit::check_witness() const {
  const auto& w = *witness_;
  expect_count(w.challenges.size(), shape_.challenges, "challenges");
  std::size_t cr_siblings = 0;
  for (unsigned a : shape_.tree_cr_arities) cr_siblings += a - 1;
  for (unsigned q = 0; q < shape_.challenges; ++q) {
    const auto& c = w.challenges[q];
    const std::string at = "challenge " + std::to_string(q);
    if (c.challenge == 0 || c.challenge >= shape_.nodes) {
      throw std::invalid_argument("porep witness: " + at + " is node " + std::to_string(c.challenge) +
                                  ", outside [1, " + std::to_string(shape_.nodes) + ")");
    }
    expect_count(c.d_siblings.size(), shape_.tree_d_depth, at + " Tree D path");
    expect_count(c.r_siblings.size(), cr_siblings, at + " Tree R path");
    expect_count(c.c_siblings.size(), cr_siblings, at + " Tree C path");
    for (unsigned p = 0; p < porep::total_parents; ++p) {
      const auto& o = p < porep::drg_degree ? c.drg_parents[p] : c.exp_parents[p - porep::drg_degree];
      const std::string pat = at + (p < porep::drg_degree ? " DRG parent " : " expander parent ") +
                              std::to_string(p < porep::drg_degree ? p : p - porep::drg_degree);
      if (o.node >= shape_.nodes) throw std::invalid_argument("porep witness: " + pat + " node out of range");
      expect_count(o.rows.size(), shape_.layers, pat + " column");
      expect_count(o.c_siblings.size(), cr_siblings, pat + " Tree C path");
    }
  }
}

std::vector<fr_t> porep_circuit::public_inputs() const {
  if (!witness_) throw std::logic_error("porep_circuit: public inputs need a witness");
  const auto& w = *witness_;
  std::vector<fr_t> in{w.replica_id, w.comm_d, w.comm_r};
  for (const auto& c : w.challenges) {
    const fr_t node = fr_t::from_u64(c.challenge);
    in.push_back(node);  // Tree D path
    for (const auto& p : c.drg_parents) in.push_back(fr_t::from_u64(p.node));
    for (const auto& p : c.exp_parents) in.push_back(fr_t::from_u64(p.node));
    in.push_back(node);  // the UInt64 challenge
    in.push_back(node);  // Tree R path
    in.push_back(node);  // Tree C path of the challenged column
  }
  return in;
}

std::string porep_circuit::description() const {
  std::string arities;
  for (unsigned a : shape_.tree_cr_arities) arities += (arities.empty() ? "" : ",") + std::to_string(a);
  return "porep " + shape_.name + ": one partition, " + std::to_string(shape_.layers) + " layers, " +
         std::to_string(shape_.challenges) + " challenges, Tree D depth " + std::to_string(shape_.tree_d_depth) +
         ", Tree C/R arities [" + arities + "]";
}

}  // namespace cuzk::circuits
