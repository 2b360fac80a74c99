#pragma once
// rust-fil-proofs' StackedCircuit (storage-proofs-porep stacked/circuit/
// proof.rs), one partition, gadget for gadget in the order of
// FILECOIN_POREP.md §8, so rows, aux variables and inputs land where the
// published parameters expect them.
//
// Synthesis is split into steps with explicit state so that the fast path
// (porep_synthesis.hpp) can run them out of order into the fixed per-step
// slots of porep_layout_t; run in order (synthesize()) they are exactly the
// sequential circuit:
//   top                       replica_id (+ bits), comm_d, comm_r, comm_r_last, comm_c, comm_r check
//   per challenge q:
//     leaf, tree_d            data leaf and its Tree D inclusion
//     parents, challenge      14 parent columns (Poseidon + Tree C), the 64 challenge bits
//     label(L) for each layer parent rows to bits, SHA-256 label
//     tail                    encode, Tree R inclusion, column hash, Tree C inclusion
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "circuits/porep_circuit_shape_t.hpp"
#include "circuits/porep_gadget_ops.hpp"
#include "circuits/porep_partition_witness_t.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

class porep_circuit {
 public:
  // Variables of the top block that challenge blocks reference.
  struct top_vars_t {
    porep_ops::num_t replica_id, comm_d, comm_r_last, comm_c;
    std::vector<porep_ops::bit_t> replica_bits;  // 256 SHA-256 message bits (LE bytes, MSB-first)
  };
  // What the prefix steps of one challenge hand to its labels and tail.
  struct challenge_vars_t {
    porep_ops::num_t data_leaf;
    std::array<std::vector<porep_ops::num_t>, porep::total_parents> columns;  // rows of DRG then expander parents
    std::vector<porep_ops::bit_t> challenge_bits;                             // 64 LE bits
  };

  // Without a witness: shape and key-generation modes only.
  explicit porep_circuit(porep_circuit_shape_t shape);
  // Throws std::invalid_argument when the witness does not have the shape's
  // challenge count, path lengths or column heights (naming the element).
  porep_circuit(porep_circuit_shape_t shape, std::shared_ptr<const porep_partition_witness_t> witness);

  const porep_circuit_shape_t& shape() const { return shape_; }
  bool has_witness() const { return bool(witness_); }
  // replica_id, comm_d, comm_r, then 18 per challenge (§8), ONE excluded.
  std::vector<ff::fr_t> public_inputs() const;
  std::string description() const;

  template <r1cs::constraint_system CS>
  void synthesize(CS& cs) const {
    top_vars_t top = synthesize_top(cs);
    for (unsigned q = 0; q < shape_.challenges; ++q) {
      challenge_vars_t v;
      v.data_leaf = step_leaf(cs, q);
      step_tree_d(cs, q, top, v.data_leaf);
      step_parents(cs, q, top, v);
      v.challenge_bits = step_challenge(cs, q);
      std::vector<porep_ops::num_t> labels;
      for (unsigned layer = 1; layer <= shape_.layers; ++layer) labels.push_back(step_label(cs, q, layer, top, v));
      step_tail(cs, q, top, v.data_leaf, labels);
    }
  }

  template <r1cs::constraint_system CS>
  top_vars_t synthesize_top(CS& cs) const;
  template <r1cs::constraint_system CS>
  porep_ops::num_t step_leaf(CS& cs, unsigned q) const;
  template <r1cs::constraint_system CS>
  void step_tree_d(CS& cs, unsigned q, const top_vars_t& top, const porep_ops::num_t& leaf) const;
  template <r1cs::constraint_system CS>
  void step_parents(CS& cs, unsigned q, const top_vars_t& top, challenge_vars_t& v) const;
  template <r1cs::constraint_system CS>
  std::vector<porep_ops::bit_t> step_challenge(CS& cs, unsigned q) const;
  template <r1cs::constraint_system CS>
  porep_ops::num_t step_label(CS& cs, unsigned q, unsigned layer, const top_vars_t& top,
                              const challenge_vars_t& v) const;
  template <r1cs::constraint_system CS>
  void step_tail(CS& cs, unsigned q, const top_vars_t& top, const porep_ops::num_t& leaf,
                 const std::vector<porep_ops::num_t>& labels) const;

 private:
  // Witness accessors; nullopt / nullptr without a witness.
  const porep_challenge_witness_t* challenge(unsigned q) const {
    return witness_ ? &witness_->challenges[q] : nullptr;
  }
  std::optional<ff::fr_t> top_value(ff::fr_t porep_partition_witness_t::*field) const {
    return witness_ ? std::optional<ff::fr_t>((*witness_).*field) : std::nullopt;
  }
  void check_witness() const;

  porep_circuit_shape_t shape_;
  std::shared_ptr<const porep_partition_witness_t> witness_;
};

template <r1cs::constraint_system CS>
porep_circuit::top_vars_t porep_circuit::synthesize_top(CS& cs) const {
  namespace ops = porep_ops;
  top_vars_t t;
  t.replica_id = ops::alloc_num(cs, "replica_id", top_value(&porep_partition_witness_t::replica_id));
  ops::inputize(cs, "replica_id_input", t.replica_id);
  t.replica_bits = ops::sha_message_bits(cs, "replica_id_bits", t.replica_id);
  t.comm_d = ops::alloc_num(cs, "comm_d", top_value(&porep_partition_witness_t::comm_d));
  ops::inputize(cs, "comm_d_input", t.comm_d);
  ops::num_t comm_r = ops::alloc_num(cs, "comm_r", top_value(&porep_partition_witness_t::comm_r));
  ops::inputize(cs, "comm_r_input", comm_r);
  t.comm_r_last = ops::alloc_num(cs, "comm_r_last", top_value(&porep_partition_witness_t::comm_r_last));
  t.comm_c = ops::alloc_num(cs, "comm_c", top_value(&porep_partition_witness_t::comm_c));
  // comm_c first (pitfall 16: the swapped order also yields a field element).
  std::array<ops::num_t, 2> pre{t.comm_c, t.comm_r_last};
  ops::num_t h = ops::poseidon(cs, "comm_r_hash", pre);
  ops::equal(cs, "comm_r_check", comm_r, h);
  return t;
}

template <r1cs::constraint_system CS>
porep_ops::num_t porep_circuit::step_leaf(CS& cs, unsigned q) const {
  r1cs::namespace_guard ns(cs, [q] { return "challenge_" + std::to_string(q); });
  const auto* c = challenge(q);
  return porep_ops::alloc_num(cs, "data_leaf", c ? std::optional(c->data_leaf) : std::nullopt);
}

template <r1cs::constraint_system CS>
void porep_circuit::step_tree_d(CS& cs, unsigned q, const top_vars_t& top, const porep_ops::num_t& leaf) const {
  r1cs::namespace_guard ns(cs, [q] { return "challenge_" + std::to_string(q) + "_tree_d"; });
  const auto* c = challenge(q);
  porep_ops::sha256_inclusion(cs, "inclusion", leaf, top.comm_d, shape_.tree_d_depth, c ? &c->d_siblings : nullptr,
                              c ? std::optional(c->challenge) : std::nullopt);
}

template <r1cs::constraint_system CS>
void porep_circuit::step_parents(CS& cs, unsigned q, const top_vars_t& top, challenge_vars_t& v) const {
  namespace ops = porep_ops;
  r1cs::namespace_guard ns(cs, [q] { return "challenge_" + std::to_string(q) + "_parents"; });
  const auto* c = challenge(q);
  for (unsigned p = 0; p < porep::total_parents; ++p) {
    r1cs::namespace_guard pns(cs, [p] { return p < porep::drg_degree ? "drg_" + std::to_string(p)
                                                                     : "exp_" + std::to_string(p - porep::drg_degree); });
    const porep_parent_opening_t* o =
        c ? (p < porep::drg_degree ? &c->drg_parents[p] : &c->exp_parents[p - porep::drg_degree]) : nullptr;
    auto& rows = v.columns[p];
    rows.clear();
    for (unsigned l = 0; l < shape_.layers; ++l) {
      rows.push_back(ops::alloc_num(cs, [l] { return "row_" + std::to_string(l + 1); },
                                    o ? std::optional(o->rows[l]) : std::nullopt));
    }
    ops::num_t col = ops::poseidon(cs, "column_hash", rows);
    ops::poseidon_inclusion(cs, "column_inclusion", col, top.comm_c, shape_.tree_cr_arities, o ? &o->c_siblings : nullptr,
                            o ? std::optional(o->node) : std::nullopt);
  }
}

template <r1cs::constraint_system CS>
std::vector<porep_ops::bit_t> porep_circuit::step_challenge(CS& cs, unsigned q) const {
  r1cs::namespace_guard ns(cs, [q] { return "challenge_" + std::to_string(q) + "_index"; });
  const auto* c = challenge(q);
  auto bits = porep_ops::alloc_u64_bits(cs, "bits", c ? std::optional(c->challenge) : std::nullopt);
  porep_ops::pack_into_inputs(cs, "input", bits);
  return bits;
}

template <r1cs::constraint_system CS>
porep_ops::num_t porep_circuit::step_label(CS& cs, unsigned q, unsigned layer, const top_vars_t& top,
                                           const challenge_vars_t& v) const {
  namespace ops = porep_ops;
  r1cs::namespace_guard ns(cs, [q, layer] { return "challenge_" + std::to_string(q) + "_label_" + std::to_string(layer); });
  // Layer 1 reads the DRG parents' layer-1 labels; layer L >= 2 the DRG
  // parents' layer-L labels then the expander parents' layer-(L-1) labels.
  const unsigned np = layer == 1 ? porep::drg_degree : porep::total_parents;
  std::vector<std::vector<ops::bit_t>> parent_bits(np);
  for (unsigned p = 0; p < np; ++p) {
    const unsigned row = p < porep::drg_degree ? layer - 1 : layer - 2;
    parent_bits[p] = ops::sha_message_bits(cs, [p] { return "parent_" + std::to_string(p) + "_bits"; }, v.columns[p][row]);
  }
  return ops::create_label(cs, "label", top.replica_bits, layer, v.challenge_bits, parent_bits);
}

template <r1cs::constraint_system CS>
void porep_circuit::step_tail(CS& cs, unsigned q, const top_vars_t& top, const porep_ops::num_t& leaf,
                              const std::vector<porep_ops::num_t>& labels) const {
  namespace ops = porep_ops;
  r1cs::namespace_guard ns(cs, [q] { return "challenge_" + std::to_string(q) + "_tail"; });
  const auto* c = challenge(q);
  ops::num_t replica = ops::add(cs, "encode", labels.back(), leaf);
  ops::poseidon_inclusion(cs, "tree_r_inclusion", replica, top.comm_r_last, shape_.tree_cr_arities, c ? &c->r_siblings : nullptr,
                          c ? std::optional(c->challenge) : std::nullopt);
  ops::num_t col = ops::poseidon(cs, "column_hash", labels);
  ops::poseidon_inclusion(cs, "tree_c_inclusion", col, top.comm_c, shape_.tree_cr_arities, c ? &c->c_siblings : nullptr,
                          c ? std::optional(c->challenge) : std::nullopt);
}

}  // namespace cuzk::circuits
