#pragma once
// rust-fil-proofs' FallbackPoStCircuit (storage-proofs-post fallback/
// circuit.rs), one partition, in its sequential order (synthesize_default;
// the extensible path synthesizes chunks of sectors into fresh systems and
// concatenates them, which yields the same rows, inputs and aux in the same
// order). Per sector block:
//   comm_r_last, comm_c, comm_r (aux, in that order); comm_r inputized;
//   h = Poseidon-2(comm_c, comm_r_last); comm_r * 1 = h;
//   per challenge: the leaf ("value"), its Tree R inclusion under comm_r_last
//   with the packed leaf index as the public input (post_inclusion_gadget).
// Public inputs: per block comm_r, then one leaf index per challenge.
// Rows per block: 313 + challenges x (2 + 530 per 8-ary level, 314 per
// 2-ary level): 53,333 at 32 GiB Window (x 2349 = 125,279,217, the figure
// in filecoin-proofs constants.rs).
//
// The witness is what the provider sends (post_sector_proof_t): Window, 1 to
// sectors_per_partition sectors of challenges_per_sector challenges, a short
// partition repeating its last sector (compound.rs circuit); Winning, the one
// sector with its 66 challenges, unrolled into 66 blocks of one challenge
// (post_util.rs single_partition_vanilla_proofs).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "circuits/post_inclusion_gadget.hpp"
#include "circuits/post_circuit_params.hpp"
#include "gadgets/allocated_num.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "porep/post_proof_t.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/shape_counts_t.hpp"

namespace cuzk::circuits {

class post_circuit {
 public:
  using witness_t = std::vector<porep::post_sector_proof_t>;

  // Without a witness: shape and key-generation modes only. Throws
  // std::invalid_argument for a shape without sectors or challenges, a
  // Winning shape of more than one sector, or arities without a gadget.
  explicit post_circuit(porep::post_shape_t shape);
  // Throws std::invalid_argument, naming the sector and challenge, when the
  // witness has the wrong sector or challenge count, a leaf index outside
  // the sector, or a path whose levels or siblings do not fit the tree.
  post_circuit(porep::post_shape_t shape, std::shared_ptr<const witness_t> witness);

  const porep::post_shape_t& shape() const { return shape_; }
  const post_circuit_params_t& params() const { return params_; }
  bool has_witness() const { return bool(witness_); }
  // Tree R arities, leaf to root, and how many of them are base levels.
  const std::vector<unsigned>& tree_arities() const { return arities_; }
  std::size_t base_levels() const { return base_levels_; }

  // comm_r then the leaf indices, per block, ONE excluded (post_public_inputs).
  std::vector<ff::fr_t> public_inputs() const;
  std::string description() const;

  // Counts of the whole circuit (ONE included in inputs, no input rows) from
  // one block in shape mode times the block count: every block has the same
  // shape, and a full shape pass at 32 GiB would run 234,900 Poseidon
  // gadgets only to count them.
  r1cs::shape_counts_t counts() const;
  // One block's counts (inputs without ONE).
  r1cs::shape_counts_t block_counts() const;

  template <r1cs::constraint_system CS>
  void synthesize(CS& cs) const {
    r1cs::namespace_guard outer(cs, "outer namespace");
    for (unsigned b = 0; b < params_.sector_count; ++b) {
      r1cs::namespace_guard ns(cs, [b] { return "sector_" + std::to_string(b); });
      synthesize_block(cs, b);
    }
  }

  template <r1cs::constraint_system CS>
  void synthesize_block(CS& cs, unsigned block) const;

 private:
  // The sector proof block `b` reads and the first of its challenges.
  struct block_source_t {
    const porep::post_sector_proof_t* sector = nullptr;
    unsigned first_challenge = 0;
  };
  block_source_t source(unsigned block) const;
  void check_witness() const;

  porep::post_shape_t shape_;
  post_circuit_params_t params_;
  std::vector<unsigned> arities_;
  std::size_t base_levels_ = 0;
  std::shared_ptr<const witness_t> witness_;
};

template <r1cs::constraint_system CS>
void post_circuit::synthesize_block(CS& cs, unsigned block) const {
  using num_t = gadgets::allocated_num_t;
  const block_source_t src = source(block);
  const porep::post_sector_proof_t* s = src.sector;
  auto value = [s](ff::fr_t porep::post_sector_proof_t::*field) {
    return s ? std::optional<ff::fr_t>(s->*field) : std::nullopt;
  };
  auto alloc = [&cs](const char* name, std::optional<ff::fr_t> v) {
    r1cs::namespace_guard ns(cs, name);
    return num_t::alloc(cs, v);
  };
  const num_t comm_r_last = alloc("comm_r_last", value(&porep::post_sector_proof_t::comm_r_last));
  const num_t comm_c = alloc("comm_c", value(&porep::post_sector_proof_t::comm_c));
  const num_t comm_r = alloc("comm_r", value(&porep::post_sector_proof_t::comm_r));
  {
    r1cs::namespace_guard ns(cs, "comm_r_input");
    comm_r.inputize(cs);
  }
  num_t h;
  {
    r1cs::namespace_guard ns(cs, "H_comm_c_comm_r_last");
    const num_t pre[2] = {comm_c, comm_r_last};  // comm_c first (hash2(comm_c, comm_r_last))
    h = gadgets::poseidon_hash_gadget(cs, std::span<const num_t>(pre));
  }
  {
    r1cs::namespace_guard ns(cs, "enforce_comm_c_comm_r_last_hash_comm_r");
    gadgets::enforce_equal_nums(cs, comm_r, h);
  }
  for (unsigned q = 0; q < params_.challenge_count; ++q) {
    r1cs::namespace_guard ns(cs, [q] { return "challenge_inclusion_" + std::to_string(q); });
    const porep::post_challenge_proof_t* c = s ? &s->challenges[src.first_challenge + q] : nullptr;
    const num_t leaf = alloc("value", c ? std::optional<ff::fr_t>(c->leaf) : std::nullopt);
    post_ops::tree_r_inclusion(cs, leaf, comm_r_last, arities_, base_levels_, c ? &c->path : nullptr,
                               c ? std::optional<std::uint64_t>(c->leaf_index) : std::nullopt);
  }
}

}  // namespace cuzk::circuits
