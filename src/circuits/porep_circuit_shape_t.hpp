#pragma once
// The geometry of one stacked PoRep partition circuit: everything that fixes
// its constraint system (FILECOIN_POREP.md §1, §8). Witness values play no
// part, so one shape serves shape mode, key generation and every proof of
// that sector size.
#include <cstdint>
#include <string>
#include <vector>

#include "porep/sector_params_t.hpp"

namespace cuzk::circuits {

struct porep_circuit_shape_t {
  std::string name;                   // "2KiB", … or a test shape such as "8-0-0/8"
  std::uint64_t nodes = 0;            // leaves of Tree D, C and R
  unsigned layers = 0;                // labels per challenge; also the column-hash arity
  unsigned challenges = 0;            // per partition
  unsigned tree_d_depth = 0;          // binary SHA-256 levels
  std::vector<unsigned> tree_cr_arities;  // Tree C / R levels, leaf to root (base, sub, top)

  // 1 (ONE) + replica_id, comm_d, comm_r + 18 per challenge.
  std::size_t num_inputs() const { return 4 + std::size_t(inputs_per_challenge) * challenges; }
  static constexpr unsigned inputs_per_challenge = 18;
  // Bits of a Tree C / R path: log2(arity) per level, base first.
  unsigned tree_cr_index_bits() const;

  // A production sector size (one partition of it).
  static porep_circuit_shape_t for_sector(const porep::sector_params_t& p);
  // The shapes of rust-fil-proofs' tests/stacked_circuit.rs: 2 layers, 1
  // challenge, nodes = base_arity * sub * top leaves (8 per base tree).
  // Throws std::invalid_argument for arities the gadgets do not provide.
  static porep_circuit_shape_t test_shape(unsigned base_arity, unsigned sub_arity, unsigned top_arity);
};

}  // namespace cuzk::circuits
