#pragma once
// Merkle inclusion in R1CS, after storage-proofs-core gadgets/por.rs
// (PoRCircuit with a private root) and gadgets/insertion.rs
// (FILECOIN_POREP.md §8 "Inclusion gadget"). Per level, leaf level first:
// log2(arity) index bits (AllocatedBit, LSB first), arity - 1 sibling
// allocations, the insertion picks, the node hash. Then all index bits are
// packed into ONE public input and the computed root is enforced equal to
// the given root. Per-level rows: SHA-256 binary 45,382; Poseidon 8-ary 530;
// Poseidon 2-ary 314.
#include <bit>
#include <span>
#include <string>
#include <vector>

#include "gadgets/merkle_native.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "gadgets/sha256_gadget.hpp"

namespace cuzk::gadgets {

// insert_2: [pick(b0, s, x), pick(b0, x, s)], 2 rows.
template <r1cs::constraint_system CS>
std::vector<allocated_num_t> insert_2(CS& cs, const allocated_num_t& x, std::span<const boolean_t> bits,
                                      std::span<const allocated_num_t> s) {
  std::vector<allocated_num_t> out;
  {
    r1cs::namespace_guard ns(cs, "binary insert 0");
    out.push_back(pick_num(cs, bits[0], s[0], x));
  }
  r1cs::namespace_guard ns(cs, "binary insert 1");
  out.push_back(pick_num(cs, bits[0], x, s[0]));
  return out;
}

// insert_8: nor(b0, b1), and(b0, b1), then 20 picks (22 rows) in the order
// of FILECOIN_POREP.md §7's table.
template <r1cs::constraint_system CS>
std::vector<allocated_num_t> insert_8(CS& cs, const allocated_num_t& x, std::span<const boolean_t> bits,
                                      std::span<const allocated_num_t> s) {
  const boolean_t &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
  boolean_t nor, both;
  {
    r1cs::namespace_guard ns(cs, "b0 nor b1");
    nor = boolean_t::is(nor_bits(cs, b0.bit(), b1.bit()));
  }
  {
    r1cs::namespace_guard ns(cs, "b0 and b1");
    both = boolean_t::is(and_bits(cs, b0.bit(), b1.bit()));
  }
  std::size_t n = 0;
  auto pick = [&](const boolean_t& c, const allocated_num_t& a, const allocated_num_t& b) {
    r1cs::namespace_guard ns(cs, [k = n++] { return "pick " + std::to_string(k); });
    return pick_num(cs, c, a, b);
  };
  std::vector<allocated_num_t> p;
  allocated_num_t n0 = pick(nor, x, s[0]);
  p.push_back(pick(b2, s[0], n0));
  allocated_num_t n1 = pick(b0, x, s[0]);
  allocated_num_t n2 = pick(b1, s[1], n1);
  p.push_back(pick(b2, s[1], n2));
  allocated_num_t n3 = pick(b0, s[2], x);
  allocated_num_t n4 = pick(b1, n3, s[1]);
  p.push_back(pick(b2, s[2], n4));
  allocated_num_t n5 = pick(both, x, s[2]);
  p.push_back(pick(b2, s[3], n5));
  allocated_num_t n6 = pick(nor, x, s[4]);
  p.push_back(pick(b2, n6, s[3]));
  allocated_num_t n7 = pick(b0, x, s[4]);
  allocated_num_t n8 = pick(b1, s[5], n7);
  p.push_back(pick(b2, n8, s[4]));
  allocated_num_t n9 = pick(b0, s[6], x);
  allocated_num_t n10 = pick(b1, n9, s[5]);
  p.push_back(pick(b2, n10, s[5]));
  allocated_num_t n11 = pick(both, x, s[6]);
  p.push_back(pick(b2, n11, s[6]));
  return p;
}

// A field element as SHA-256 message bits: to_bits_le (255 allocated bits,
// 256 rows), a constant 0 as bit 255, then each byte reversed to MSB-first
// (filecoin-hashers sha256.rs hash2_circuit, reverse_bit_numbering).
template <r1cs::constraint_system CS>
std::vector<boolean_t> fr_to_sha256_message_bits(CS& cs, const allocated_num_t& x) {
  std::vector<boolean_t> le = num_to_bits_le(cs, x);
  le.push_back(boolean_t::constant(false));
  std::vector<boolean_t> out;
  out.reserve(256);
  for (std::size_t byte = 0; byte < 32; ++byte)
    for (int i = 7; i >= 0; --i) out.push_back(le[8 * byte + std::size_t(i)]);
  return out;
}

// Digest bits (MSB-first bytes) to the trimmed field element: reverse each
// byte, keep the first 254 bits, pack_bits (1 row).
template <r1cs::constraint_system CS>
allocated_num_t sha256_digest_bits_to_fr(CS& cs, std::span<const boolean_t> digest_be) {
  std::vector<boolean_t> le;
  le.reserve(256);
  for (std::size_t byte = 0; byte < 32; ++byte)
    for (int i = 7; i >= 0; --i) le.push_back(digest_be[8 * byte + std::size_t(i)]);
  le.resize(fr_capacity_bits);
  r1cs::namespace_guard ns(cs, "pack_le");
  return pack_bits(cs, std::span<const boolean_t>(le));
}

// Filecoin's Sha256 hasher node in R1CS (hash2_circuit): 2 x 256 rows of
// bit decomposition, 44,866 rows of SHA-256 (two constant bits), 1 pack row.
template <r1cs::constraint_system CS>
allocated_num_t sha256_hash2_gadget(CS& cs, const allocated_num_t& a, const allocated_num_t& b) {
  std::vector<boolean_t> msg;
  {
    r1cs::namespace_guard ns(cs, "a_bits");
    msg = fr_to_sha256_message_bits(cs, a);
  }
  {
    r1cs::namespace_guard ns(cs, "b_bits");
    std::vector<boolean_t> bb = fr_to_sha256_message_bits(cs, b);
    msg.insert(msg.end(), bb.begin(), bb.end());
  }
  std::vector<boolean_t> digest;
  {
    r1cs::namespace_guard ns(cs, "hash");
    digest = sha256_gadget(cs, std::span<const boolean_t>(msg));
  }
  return sha256_digest_bits_to_fr(cs, digest);
}

// The computed root of `leaf` along `path`; appends the index bits (LSB
// first, level by level) to `index_bits`. No public input, no root check:
// merkle_inclusion_gadget adds those.
template <r1cs::constraint_system CS>
allocated_num_t merkle_root_gadget(CS& cs, merkle_hasher_t hasher, const allocated_num_t& leaf,
                                   const merkle_path_t& path, std::vector<boolean_t>& index_bits) {
  allocated_num_t cur = leaf;
  for (std::size_t lvl = 0; lvl < path.size(); ++lvl) {
    const merkle_level_t& level = path[lvl];
    const std::size_t a = level.arity, nbits = std::size_t(std::countr_zero(a));
    if (!std::has_single_bit(a) || (a != 2 && a != 8) || level.siblings.size() + 1 != a ||
        (hasher == merkle_hasher_t::sha256 && a != 2)) {
      throw std::invalid_argument("merkle_root_gadget: unsupported level (arity " + std::to_string(a) + ")");
    }
    r1cs::namespace_guard ns(cs, [lvl] { return "merkle tree hash " + std::to_string(lvl); });
    std::vector<boolean_t> bits;
    for (std::size_t i = 0; i < nbits; ++i) {
      r1cs::namespace_guard ns2(cs, [i] { return "index bit " + std::to_string(i); });
      std::optional<bool> v;
      if (level.index) v = (*level.index >> i) & 1;
      bits.push_back(alloc_boolean(cs, v));
    }
    std::vector<allocated_num_t> siblings;
    for (std::size_t k = 0; k + 1 < a; ++k) {
      r1cs::namespace_guard ns2(cs, [k] { return "path element " + std::to_string(k); });
      siblings.push_back(allocated_num_t::alloc(cs, level.siblings[k]));
    }
    std::vector<allocated_num_t> inserted;
    {
      r1cs::namespace_guard ns2(cs, "insert");
      inserted = a == 2 ? insert_2(cs, cur, bits, siblings) : insert_8(cs, cur, bits, siblings);
    }
    index_bits.insert(index_bits.end(), bits.begin(), bits.end());
    r1cs::namespace_guard ns2(cs, "computation of commitment hash");
    if (hasher == merkle_hasher_t::sha256) cur = sha256_hash2_gadget(cs, inserted[0], inserted[1]);
    else cur = poseidon_hash_gadget(cs, std::span<const allocated_num_t>(inserted));
  }
  return cur;
}

// PoRCircuit with a private root: merkle_root_gadget, pack_into_inputs of the
// index bits (one public input whose value is the leaf index; returned), and
// the row computed_root * 1 = root.
template <r1cs::constraint_system CS>
variable_t merkle_inclusion_gadget(CS& cs, merkle_hasher_t hasher, const allocated_num_t& leaf,
                                   const merkle_path_t& path, const allocated_num_t& root) {
  std::vector<boolean_t> index_bits;
  allocated_num_t computed = merkle_root_gadget(cs, hasher, leaf, path, index_bits);
  std::vector<variable_t> inputs;
  {
    r1cs::namespace_guard ns(cs, "path");
    inputs = pack_into_inputs(cs, std::span<const boolean_t>(index_bits));
  }
  cs.enforce("enforce root is correct", [&](linear_combination_t lc) { return lc + computed.var; },
             [&](linear_combination_t lc) { return lc + cs.one(); },
             [&](linear_combination_t lc) { return lc + root.var; });
  return inputs.at(0);
}

}  // namespace cuzk::gadgets
