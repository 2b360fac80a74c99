#pragma once
// PoRCircuit (storage-proofs-core gadgets/por.rs) with a private root, as
// the fallback PoSt circuit calls it: the leaf is allocated ("value"), the
// path ascends the base levels, then the sub level, then the top level
// (SubPath::synthesize for each, level numbering restarting at 0), the index
// bits of all levels are packed into ONE public input, and
// computed_root * 1 = root. Per level: log2(arity) AllocatedBits, arity - 1
// sibling allocations, insertion (insertion.rs), Poseidon of the arity.
//
// gadgets/merkle_inclusion_gadget emits the same rows for arities 2 and 8;
// this one also takes the 4-ary levels of upstream's test trees (8-4-0,
// 8-4-2 in tests/fallback_circuit.rs), so their counts can be reproduced.
// Rows per level: 8-ary 3 + 22 + 505 = 530, 4-ary 2 + 8 + 377 = 387,
// 2-ary 1 + 2 + 311 = 314; plus 2 rows per inclusion (pack, root check).
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gadgets/merkle_gadget.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "porep/merkle_path_t.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits::post_ops {

using bit_t = gadgets::boolean_t;
using num_t = gadgets::allocated_num_t;

// insertion.rs insert_4: 8 picks. Inserting a into [b, c, d] at the
// position n = b0 + 2 b1:
//   n=0: a b c d   n=1: b a c d   n=2: b c a d   n=3: b c d a
template <r1cs::constraint_system CS>
std::vector<num_t> insert_4(CS& cs, const num_t& a, std::span<const bit_t> bits, std::span<const num_t> s) {
  const bit_t &b0 = bits[0], &b1 = bits[1];
  const num_t &b = s[0], &c = s[1], &d = s[2];
  auto pick = [&](const char* name, const bit_t& cond, const num_t& x, const num_t& y) {
    r1cs::namespace_guard ns(cs, name);
    return gadgets::pick_num(cs, cond, x, y);
  };
  num_t p0_x0 = pick("p0_x0", b0, b, a);
  num_t p0 = pick("p0", b1, b, p0_x0);
  num_t p1_x0 = pick("p1_x0", b0, a, b);
  num_t p1 = pick("p1", b1, c, p1_x0);
  num_t p2_x1 = pick("p2_x1", b0, d, a);
  num_t p2 = pick("p2", b1, p2_x1, c);
  num_t p3_x1 = pick("p3_x1", b0, a, d);
  num_t p3 = pick("p3", b1, p3_x1, d);
  return {p0, p1, p2, p3};
}

// One SubPath: levels [first, first + count) of the path, `slots` the path
// node's position at each level. Returns the subtree root; appends the
// index bits.
template <r1cs::constraint_system CS>
num_t sub_path(CS& cs, num_t cur, std::span<const unsigned> arities, std::size_t first, std::size_t count,
               const porep::merkle_path_t* path, const std::vector<unsigned>* slots, std::vector<bit_t>& index_bits) {
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t lvl = first + i;
    const unsigned arity = arities[lvl];
    if (arity != 2 && arity != 4 && arity != 8)
      throw std::invalid_argument("post inclusion: arity " + std::to_string(arity) + " has no insertion gadget");
    r1cs::namespace_guard ns(cs, [i] { return "merkle tree hash " + std::to_string(i); });
    std::vector<bit_t> bits;
    for (unsigned k = 0; k < unsigned(std::countr_zero(arity)); ++k) {
      r1cs::namespace_guard bns(cs, [k] { return "index bit " + std::to_string(k); });
      std::optional<bool> v;
      if (slots) v = ((*slots)[lvl] >> k) & 1;
      bits.push_back(gadgets::alloc_boolean(cs, v));
    }
    index_bits.insert(index_bits.end(), bits.begin(), bits.end());
    std::vector<num_t> siblings;
    for (unsigned k = 0; k + 1 < arity; ++k) {
      r1cs::namespace_guard sns(cs, [k] { return "path element " + std::to_string(k); });
      std::optional<ff::fr_t> v;
      if (path) v = path->siblings[lvl][k];
      siblings.push_back(num_t::alloc(cs, v));
    }
    std::vector<num_t> inserted = arity == 2   ? gadgets::insert_2(cs, cur, bits, siblings)
                                  : arity == 4 ? insert_4(cs, cur, std::span<const bit_t>(bits), siblings)
                                               : gadgets::insert_8(cs, cur, bits, siblings);
    r1cs::namespace_guard hns(cs, "computation of commitment hash");
    cur = gadgets::poseidon_hash_gadget(cs, std::span<const num_t>(inserted));
  }
  return cur;
}

// The inclusion of `leaf` at `leaf_index` under `root` in a Poseidon tree of
// `arities` (leaf to root) whose first `base_levels` levels are the base
// tree's, then at most a sub level and a top level. `path` and `leaf_index`
// are absent without a witness; their level and sibling counts are the
// caller's to check.
template <r1cs::constraint_system CS>
void tree_r_inclusion(CS& cs, const num_t& leaf, const num_t& root, std::span<const unsigned> arities,
                      std::size_t base_levels, const porep::merkle_path_t* path, std::optional<std::uint64_t> leaf_index) {
  std::optional<std::vector<unsigned>> slots;
  if (leaf_index) {
    slots.emplace();
    std::uint64_t rest = *leaf_index;
    for (unsigned a : arities) slots->push_back(unsigned(rest % a)), rest /= a;
  }
  const std::vector<unsigned>* sl = slots ? &*slots : nullptr;
  const std::size_t extra = arities.size() - base_levels;  // 0, 1 (sub) or 2 (sub, top)
  std::vector<bit_t> index_bits;
  num_t cur = leaf;
  {
    r1cs::namespace_guard ns(cs, "base");
    cur = sub_path(cs, cur, arities, 0, base_levels, path, sl, index_bits);
  }
  {
    r1cs::namespace_guard ns(cs, "sub");
    cur = sub_path(cs, cur, arities, base_levels, extra > 0 ? 1 : 0, path, sl, index_bits);
  }
  {
    r1cs::namespace_guard ns(cs, "top");
    cur = sub_path(cs, cur, arities, base_levels + 1, extra > 1 ? 1 : 0, path, sl, index_bits);
  }
  {
    r1cs::namespace_guard ns(cs, "path");
    gadgets::pack_into_inputs(cs, std::span<const bit_t>(index_bits));
  }
  cs.enforce("enforce root is correct", [&](r1cs::linear_combination_t lc) { return lc + cur.var; },
             [&](r1cs::linear_combination_t lc) { return lc + cs.one(); },
             [&](r1cs::linear_combination_t lc) { return lc + root.var; });
}

}  // namespace cuzk::circuits::post_ops
