#pragma once
// A PoRep partition witness of the right shape with random values (below
// 2^254, as every PoRep domain value is) and random in-range node indices.
// It does not satisfy the circuit; it exercises synthesis, whose work and
// output layout do not depend on the values. Used by tests and benchmarks.
#include <memory>
#include <random>

#include "circuits/porep_circuit_shape_t.hpp"
#include "circuits/porep_partition_witness_t.hpp"

namespace cuzk::circuits {

inline ff::fr_t random_fr254(std::mt19937_64& rng) {
  ff::fr_t::limbs l{rng(), rng(), rng(), rng() >> 2};
  return *ff::fr_t::from_canonical(l);
}

inline std::shared_ptr<const porep_partition_witness_t> random_porep_witness(const porep_circuit_shape_t& s,
                                                                          uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto w = std::make_shared<porep_partition_witness_t>();
  for (ff::fr_t* x : {&w->replica_id, &w->comm_d, &w->comm_r, &w->comm_c, &w->comm_r_last}) *x = random_fr254(rng);
  size_t cr = 0;
  for (unsigned a : s.tree_cr_arities) cr += a - 1;
  auto fill = [&](std::vector<ff::fr_t>& v, size_t n) {
    v.resize(n);
    for (auto& x : v) x = random_fr254(rng);
  };
  w->challenges.resize(s.challenges);
  for (auto& c : w->challenges) {
    c.challenge = 1 + rng() % (s.nodes - 1);
    c.data_leaf = random_fr254(rng);
    fill(c.d_siblings, s.tree_d_depth);
    fill(c.r_siblings, cr);
    fill(c.c_siblings, cr);
    auto open = [&](porep_parent_opening_t& o) {
      o.node = rng() % s.nodes;
      fill(o.rows, s.layers);
      fill(o.c_siblings, cr);
    };
    for (auto& o : c.drg_parents) open(o);
    for (auto& o : c.exp_parents) open(o);
  }
  return w;
}

}  // namespace cuzk::circuits
