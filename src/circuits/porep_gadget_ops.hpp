#pragma once
// The handful of gadget calls the stacked PoRep circuit makes, as thin
// adapters over src/gadgets, so porep_circuit.hpp reads like rust-fil-proofs'
// StackedCircuit. Only composition lives here (the label's message layout,
// the conversion of our flat paths); every
// constraint is emitted by a gadget.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gadgets/allocated_num.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/merkle_gadget.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "gadgets/sha256_gadget.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits::porep_ops {

using bit_t = gadgets::boolean_t;
using num_t = gadgets::allocated_num_t;

template <r1cs::constraint_system CS, r1cs::name_source N>
num_t alloc_num(CS& cs, N&& name, std::optional<ff::fr_t> value) {
  return {cs.alloc(std::forward<N>(name), [&] { return value; }), value};
}

// AllocatedNum::inputize: input u, row u * 1 = x.
template <r1cs::constraint_system CS>
void inputize(CS& cs, const char* name, const num_t& x) {
  r1cs::namespace_guard ns(cs, name);
  x.inputize(cs);
}

// A field element as SHA-256 message bits: non-strict to_bits_le (255
// allocated bits, 256 rows), a constant 0, each byte reversed to MSB-first
// (§3.1; the constant lands at offset 248).
template <r1cs::constraint_system CS, r1cs::name_source N>
std::vector<bit_t> sha_message_bits(CS& cs, N&& name, const num_t& x) {
  r1cs::namespace_guard ns(cs, std::forward<N>(name));
  return gadgets::fr_to_sha256_message_bits(cs, x);
}

// UInt64::alloc: 64 allocated bits, LSB first.
template <r1cs::constraint_system CS>
std::vector<bit_t> alloc_u64_bits(CS& cs, const char* name, std::optional<std::uint64_t> value) {
  r1cs::namespace_guard ns(cs, name);
  std::vector<bit_t> bits;
  bits.reserve(64);
  for (unsigned i = 0; i < 64; ++i) {
    std::optional<bool> b;
    if (value) b = (*value >> i) & 1;
    r1cs::namespace_guard bns(cs, [i] { return "bit_" + std::to_string(i); });
    bits.push_back(gadgets::alloc_boolean(cs, b));
  }
  return bits;
}

template <r1cs::constraint_system CS>
void pack_into_inputs(CS& cs, const char* name, std::span<const bit_t> bits) {
  r1cs::namespace_guard ns(cs, name);
  gadgets::pack_into_inputs(cs, bits);
}

// constraint::equal: a * 1 = b.
template <r1cs::constraint_system CS>
void equal(CS& cs, const char* name, const num_t& a, const num_t& b) {
  r1cs::namespace_guard ns(cs, name);
  gadgets::enforce_equal_nums(cs, a, b);
}

// constraint::add (encode): y, row (a + b) * 1 = y.
template <r1cs::constraint_system CS>
num_t add(CS& cs, const char* name, const num_t& a, const num_t& b) {
  r1cs::namespace_guard ns(cs, name);
  return gadgets::add_nums(cs, a, b);
}

// Poseidon with arity = inputs.size() (2, 8 or 11), MerkleTree domain tag.
template <r1cs::constraint_system CS>
num_t poseidon(CS& cs, const char* name, std::span<const num_t> inputs) {
  r1cs::namespace_guard ns(cs, name);
  return gadgets::poseidon_hash_gadget(cs, inputs);
}

// create_label_circuit (stacked/circuit/create_label.rs): SHA-256 over
// replica_id ‖ layer u32 BE ‖ node u64 BE ‖ zeros to 512 bits ‖ 37 parent
// slots (layer 1: P×6 + P[0]; layer >= 2: P ‖ P ‖ P[0..9]), then the
// trimmed digest packed. Repeated slots reuse the same bit variables.
template <r1cs::constraint_system CS>
num_t create_label(CS& cs, const char* name, std::span<const bit_t> replica_msg, unsigned layer,
                   std::span<const bit_t> challenge_le, const std::vector<std::vector<bit_t>>& parents_msg) {
  r1cs::namespace_guard ns(cs, name);
  std::vector<bit_t> msg;
  msg.reserve(512 + 37 * 256);
  msg.insert(msg.end(), replica_msg.begin(), replica_msg.end());
  for (int i = 31; i >= 0; --i) msg.push_back(bit_t::constant((layer >> i) & 1));
  for (int i = 63; i >= 0; --i) msg.push_back(challenge_le[i]);
  msg.resize(512, bit_t::constant(false));
  for (unsigned s = 0; s < 37; ++s) {
    const auto& p = parents_msg[s % parents_msg.size()];
    msg.insert(msg.end(), p.begin(), p.end());
  }
  std::vector<bit_t> digest = gadgets::sha256_gadget(cs, msg);
  r1cs::namespace_guard pns(cs, "pack");
  return gadgets::sha256_digest_bits_to_fr(cs, digest);
}

// The gadgets' path form from our flat siblings (arity-1 per level, leaf to
// root) and the leaf index, whose mixed-radix digits are the level slots.
// Without a witness, values stay empty (shape, keygen).
inline gadgets::merkle_path_t merkle_path(const std::vector<unsigned>& arities, const std::vector<ff::fr_t>* siblings,
                                          std::optional<std::uint64_t> index) {
  gadgets::merkle_path_t path(arities.size());
  std::size_t k = 0;
  std::uint64_t rest = index.value_or(0);
  for (std::size_t l = 0; l < arities.size(); ++l) {
    auto& level = path[l];
    level.arity = arities[l];
    level.siblings.resize(arities[l] - 1);
    if (index) level.index = std::size_t(rest % arities[l]), rest /= arities[l];
    if (siblings) {
      for (auto& s : level.siblings) s = (*siblings)[k++];
    }
  }
  return path;
}

// PoRCircuit with a private root (storage-proofs-core gadgets/por.rs): per
// level index bits, siblings, insertion, node hash; then the index bits packed
// into one input and computed_root * 1 = root.
template <r1cs::constraint_system CS>
void sha256_inclusion(CS& cs, const char* name, const num_t& leaf, const num_t& root, unsigned depth,
                      const std::vector<ff::fr_t>* siblings, std::optional<std::uint64_t> index) {
  r1cs::namespace_guard ns(cs, name);
  const gadgets::merkle_path_t path = merkle_path(std::vector<unsigned>(depth, 2u), siblings, index);
  gadgets::merkle_inclusion_gadget(cs, gadgets::merkle_hasher_t::sha256, leaf, path, root);
}

// The same over a Poseidon tree (Tree C / R); arities leaf to root (base
// levels, then sub, then top).
template <r1cs::constraint_system CS>
void poseidon_inclusion(CS& cs, const char* name, const num_t& leaf, const num_t& root,
                        const std::vector<unsigned>& arities, const std::vector<ff::fr_t>* siblings,
                        std::optional<std::uint64_t> index) {
  r1cs::namespace_guard ns(cs, name);
  const gadgets::merkle_path_t path = merkle_path(arities, siblings, index);
  gadgets::merkle_inclusion_gadget(cs, gadgets::merkle_hasher_t::poseidon, leaf, path, root);
}

}  // namespace cuzk::circuits::porep_ops
