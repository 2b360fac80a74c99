#pragma once
// rust-fil-proofs' EmptySectorUpdateCircuit (storage-proofs-update
// circuit.rs, gadgets.rs; SHA-256 Tree D, the deployed variant), one
// partition, in upstream's allocation order:
//   k_and_h_select (aux, inputized); its partition_bit_len + 6 low bits
//   (AllocatedBit) and the row sum 2^i bit_i * 1 = k_and_h_select;
//   partition = pack_bits(partition bits);
//   comm_r_old, comm_d_new, comm_r_new (aux, each inputized);
//   phi = Poseidon_gen(comm_d_new, comm_r_old);
//   comm_c, root_r_old, root_r_new, the apex leaves, the partition path;
//   Poseidon_2(comm_c, root_r_old) * 1 = comm_r_old, then comm_r_new's;
//   apex_por: the apex tree (SHA-256 pairs) and the partition path to
//   comm_d_new, bits = the partition bits;
//   gen_challenge_bits: per digest j, digest_index (row (dpp * k + j) * 1 =
//   index), Poseidon_gen(comm_r_new, index), its 255 bits and the row
//   sum 2^i bit_i * 1 = digest;
//   per challenge: c_bits = its random bits then the partition bits;
//   c_high (6 packs, 6 products with the h_select bits, their sum), rho =
//   Poseidon_gen(phi, c_high), leaf_r_old, leaf_d_new, leaf_d_new * rho,
//   leaf_r_new = leaf_r_old + that; path_r_old's siblings, its inclusion
//   (por_no_challenge_input: insertion on c_bits, Poseidon per level, root
//   row); path_r_new's, its inclusion; the apex leaf selected by c_bits'
//   apex bits (insertion.rs select); the Tree D path to it.
// Public inputs: ONE, k_and_h_select, comm_r_old, comm_d_new, comm_r_new.
// Counts: 1 KiB 1,248,389 … 32 GiB 81,049,499 (tests/circuit.rs).
#include <bit>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "circuits/post_inclusion_gadget.hpp"
#include "gadgets/allocated_num.hpp"
#include "gadgets/merkle_gadget.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "porep/snap_proof_t.hpp"
#include "porep/snap_shape.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/shape_counts_t.hpp"

namespace cuzk::circuits {

namespace snap_ops {

using bit_t = gadgets::boolean_t;
using num_t = gadgets::allocated_num_t;
using lc_t = r1cs::linear_combination_t;

// Row (sum 2^i bit_i) * 1 = x, the form gadgets.rs and circuit.rs write
// their decompositions in (not AllocatedNum::to_bits_le's 0 * 0 = lc - x).
template <r1cs::constraint_system CS>
void enforce_packed(CS& cs, std::span<const bit_t> bits, const num_t& x, const char* name) {
  cs.enforce(name, [&](lc_t lc) { return gadgets::detail::add_packed(lc, bits, cs.one()), lc; },
             [&](lc_t lc) { return lc + cs.one(); }, [&](lc_t lc) { return lc + x.var; });
}

// The n low bits of x as AllocatedBits (field_into_allocated_bits_le takes
// all 255), LSB first, then enforce_packed.
template <r1cs::constraint_system CS>
std::vector<bit_t> alloc_low_bits(CS& cs, const num_t& x, std::size_t n, const char* name) {
  std::vector<bool> v;
  if (x.value) v = gadgets::fr_to_bits_le(*x.value);
  std::vector<bit_t> bits;
  bits.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "bit " + std::to_string(i); });
    bits.push_back(gadgets::alloc_boolean(cs, x.value ? std::optional<bool>(v[i]) : std::nullopt));
  }
  enforce_packed(cs, std::span<const bit_t>(bits), x, name);
  return bits;
}

// a * b: alloc, row a * b = ab (AllocatedNum::mul).
template <r1cs::constraint_system CS>
num_t mul(CS& cs, const num_t& a, const num_t& b) {
  std::optional<ff::fr_t> v;
  if (a.value && b.value) v = *a.value * *b.value;
  num_t ab = num_t::alloc(cs, v, "product");
  cs.enforce("multiplication constraint", [&](lc_t lc) { return lc + a.var; }, [&](lc_t lc) { return lc + b.var; },
             [&](lc_t lc) { return lc + ab.var; });
  return ab;
}

// insertion.rs select: from[bits] (bits LSB first; consumed MSB first).
template <r1cs::constraint_system CS>
num_t select(CS& cs, std::vector<num_t> state, std::span<const bit_t> bits) {
  std::size_t half = state.size() / 2;
  for (std::size_t i = 0; i < bits.size(); ++i) {
    const bit_t& b = bits[bits.size() - 1 - i];
    std::vector<num_t> next;
    for (std::size_t j = 0; j < half; ++j) {
      r1cs::namespace_guard ns(cs, [i, j] { return "pick " + std::to_string(i) + ", " + std::to_string(j); });
      next.push_back(gadgets::pick_num(cs, b, state[half + j], state[j]));
    }
    state = std::move(next);
    half /= 2;
  }
  return state[0];
}

// por.rs por_no_challenge_input: the given bits (LSB first) pick the
// insertion slot at each level of `arities`; siblings are allocated by the
// caller; then computed root * 1 = root.
template <r1cs::constraint_system CS>
void por_no_challenge_input(CS& cs, bool sha256, std::span<const unsigned> arities, std::span<const bit_t> bits,
                            const num_t& leaf, const std::vector<std::vector<num_t>>& siblings, const num_t& root) {
  num_t cur = leaf;
  std::size_t used = 0;
  for (std::size_t l = 0; l < arities.size(); ++l) {
    const unsigned a = arities[l], nb = unsigned(std::countr_zero(a));
    const std::span<const bit_t> b = bits.subspan(used, nb);
    used += nb;
    std::vector<num_t> in;
    {
      r1cs::namespace_guard ns(cs, [l] { return "merkle proof insert (height=" + std::to_string(l) + ")"; });
      const std::span<const num_t> s(siblings[l]);
      in = a == 2 ? gadgets::insert_2(cs, cur, b, s)
           : a == 4 ? post_ops::insert_4(cs, cur, b, s)
                    : gadgets::insert_8(cs, cur, b, s);
    }
    r1cs::namespace_guard ns(cs, [l] { return "merkle proof hash (height=" + std::to_string(l) + ")"; });
    cur = sha256 ? gadgets::sha256_hash2_gadget(cs, in[0], in[1])
                 : gadgets::poseidon_hash_gadget(cs, std::span<const num_t>(in));
  }
  cs.enforce("calculated root == provided root", [&](lc_t lc) { return lc + cur.var; },
             [&](lc_t lc) { return lc + cs.one(); }, [&](lc_t lc) { return lc + root.var; });
}

}  // namespace snap_ops

// One partition's witness: its public inputs and vanilla proof.
using snap_witness_t = porep::snap_partition_t;

class snap_circuit {
 public:
  // Without a witness: shape and key-generation modes.
  explicit snap_circuit(porep::snap_shape_t shape);
  // Throws std::invalid_argument naming the element when the witness's
  // counts or path shapes do not fit the shape, or k / h are out of range.
  snap_circuit(porep::snap_shape_t shape, std::shared_ptr<const snap_witness_t> witness);

  const porep::snap_shape_t& shape() const { return shape_; }
  bool has_witness() const { return bool(witness_); }
  // k_and_h_select, comm_r_old, comm_d_new, comm_r_new (ONE excluded).
  std::vector<ff::fr_t> public_inputs() const;
  static std::vector<ff::fr_t> public_inputs(const porep::snap_shape_t& shape, const porep::snap_public_t& pub);
  std::string description() const;
  // A shape pass (ONE included in inputs, no input rows).
  r1cs::shape_counts_t counts() const;

  template <r1cs::constraint_system CS>
  void synthesize(CS& cs) const;

  // What a challenge reads of the top block.
  struct top_vars_t {
    std::vector<snap_ops::bit_t> kh_bits;  // partition bits, then h_select bits
    snap_ops::num_t phi, root_r_old, root_r_new;
    std::vector<snap_ops::num_t> apex_leaves;
    std::vector<std::vector<snap_ops::bit_t>> random_bits;  // per challenge, slices of the digests' bits
  };
  // synthesize() is synthesize_top, then synthesize_challenge for every
  // challenge in turn (inside namespace "challenge <ci>"). A challenge's rows
  // do not depend on values or on ci, and its variables are its own but for
  // the top block's: the same ones for every challenge except random_bits[ci]
  // (snap_synthesis.hpp compiles one challenge block from this).
  template <r1cs::constraint_system CS>
  top_vars_t synthesize_top(CS& cs) const;
  template <r1cs::constraint_system CS>
  void synthesize_challenge(CS& cs, unsigned ci, const top_vars_t& top) const;

 private:
  porep::snap_shape_t shape_;
  std::shared_ptr<const snap_witness_t> witness_;
};

template <r1cs::constraint_system CS>
void snap_circuit::synthesize(CS& cs) const {
  const top_vars_t top = synthesize_top(cs);
  for (unsigned ci = 0; ci < shape_.challenges; ++ci) {
    r1cs::namespace_guard ns(cs, [ci] { return "challenge " + std::to_string(ci); });
    synthesize_challenge(cs, ci, top);
  }
}

template <r1cs::constraint_system CS>
snap_circuit::top_vars_t snap_circuit::synthesize_top(CS& cs) const {
  using namespace snap_ops;
  using opt = std::optional<ff::fr_t>;
  const porep::snap_shape_t& s = shape_;
  const snap_witness_t* w = witness_.get();
  const porep::snap_partition_proof_t* p = w ? &w->proof : nullptr;
  const auto& gen = gadgets::poseidon_gen_randomness_params();
  auto alloc = [&cs](const std::string& name, opt v) {
    r1cs::namespace_guard ns(cs, name);
    return num_t::alloc(cs, v);
  };
  auto inputize = [&cs](const num_t& x, const char* name) {
    r1cs::namespace_guard ns(cs, name);
    x.inputize(cs);
  };
  auto maybe = [w](auto f) { return w ? opt(f()) : std::nullopt; };
  const unsigned pbits = s.partition_bit_len, hbits = unsigned(s.hs.size());

  const num_t k_and_h =
      alloc("k_and_h_select", maybe([&] { return ff::fr_t::from_u64(s.k_and_h_select(w->pub.k, w->pub.h)); }));
  inputize(k_and_h, "k_and_h_select (public input)");
  top_vars_t top;
  {
    r1cs::namespace_guard ns(cs, "k_and_h_select bits");
    top.kh_bits = alloc_low_bits(cs, k_and_h, pbits + hbits, "k_and_h_select binary decomp");
  }
  const std::span<const bit_t> partition_bits(top.kh_bits.data(), pbits);
  num_t partition;
  {
    r1cs::namespace_guard ns(cs, "pack partition bits");
    partition = gadgets::pack_bits(cs, partition_bits);
  }
  const num_t comm_r_old = alloc("comm_r_old", maybe([&] { return w->pub.comm_r_old; }));
  inputize(comm_r_old, "comm_r_old_input");
  const num_t comm_d_new = alloc("comm_d_new", maybe([&] { return w->pub.comm_d_new; }));
  inputize(comm_d_new, "comm_d_new_input");
  const num_t comm_r_new = alloc("comm_r_new", maybe([&] { return w->pub.comm_r_new; }));
  inputize(comm_r_new, "comm_r_new_input");
  {
    r1cs::namespace_guard ns(cs, "phi");
    const num_t in[2] = {comm_d_new, comm_r_old};
    top.phi = gadgets::poseidon_hash_gadget(cs, gen, in);
  }

  const num_t comm_c = alloc("comm_c", maybe([&] { return p->comm_c; }));
  top.root_r_old = alloc("root_r_old", maybe([&] { return p->challenges[0].r_old.root; }));
  top.root_r_new = alloc("root_r_new", maybe([&] { return p->challenges[0].r_new.root; }));
  std::vector<num_t>& apex_leaves = top.apex_leaves;
  for (unsigned i = 0; i < s.apex_leaves; ++i)
    apex_leaves.push_back(alloc("apex_leaf_" + std::to_string(i), maybe([&] { return p->apex_leaves[i]; })));
  const unsigned path_level = s.challenge_bit_len - pbits;  // first level of the partition path
  std::vector<std::vector<num_t>> partition_path;
  for (unsigned i = 0; i < pbits; ++i)
    partition_path.push_back({alloc("partition_path_sibling_" + std::to_string(i),
                                    maybe([&] { return p->challenges[0].d_new.path.siblings[path_level + i][0]; }))});

  auto comm_r_check = [&](const char* name, const num_t& root, const num_t& comm_r) {
    r1cs::namespace_guard ns(cs, name);
    const num_t in[2] = {comm_c, root};
    const num_t calc = gadgets::poseidon_hash_gadget(cs, std::span<const num_t>(in));
    gadgets::enforce_equal_nums(cs, calc, comm_r);
  };
  comm_r_check("comm_r_old_calc", top.root_r_old, comm_r_old);
  comm_r_check("comm_r_new_calc", top.root_r_new, comm_r_new);

  {
    r1cs::namespace_guard ns(cs, "apex_gadget");
    std::vector<num_t> row = apex_leaves;
    for (unsigned level = 0; row.size() > 1; ++level) {
      std::vector<num_t> up;
      for (std::size_t i = 0; i < row.size() / 2; ++i) {
        r1cs::namespace_guard hn(cs, [level, i] {
          return "apex_tree generation hash (tree_row=" + std::to_string(level) + ", siblings=" + std::to_string(i) +
                 ")";
        });
        up.push_back(gadgets::sha256_hash2_gadget(cs, row[2 * i], row[2 * i + 1]));
      }
      row = std::move(up);
    }
    r1cs::namespace_guard pn(cs, "partition-tree por");
    const std::vector<unsigned> ar(pbits, 2u);
    por_no_challenge_input(cs, true, ar, partition_bits, row[0], partition_path, comm_d_new);
  }

  // gen_challenge_bits
  const unsigned rbits = s.random_bits_per_challenge(), per = s.challenges_per_digest();
  const unsigned dpp = s.digests_per_partition();
  std::vector<std::vector<bit_t>>& generated = top.random_bits;
  {
    r1cs::namespace_guard ns(cs, "gen_challenge_bits");
    for (unsigned j = 0; j < dpp; ++j) {
      opt idx;
      if (partition.value) idx = *partition.value * ff::fr_t::from_u64(dpp) + ff::fr_t::from_u64(j);
      const num_t index = alloc("digest_index_" + std::to_string(j), idx);
      cs.enforce("digest_index", [&](lc_t lc) {
                   return lc + r1cs::term_t{partition.var, ff::fr_t::from_u64(dpp)} +
                          r1cs::term_t{cs.one(), ff::fr_t::from_u64(j)};
                 },
                 [&](lc_t lc) { return lc + cs.one(); }, [&](lc_t lc) { return lc + index.var; });
      num_t digest;
      {
        r1cs::namespace_guard dn(cs, [j] { return "digest_" + std::to_string(j); });
        const num_t in[2] = {comm_r_new, index};
        digest = gadgets::poseidon_hash_gadget(cs, gen, in);
      }
      std::vector<bit_t> bits;
      {
        r1cs::namespace_guard bn(cs, [j] { return "digest_" + std::to_string(j) + "_bits"; });
        bits = alloc_low_bits(cs, digest, ff::fr_t::bits, "binary decomp");
      }
      const unsigned take = j + 1 == dpp ? s.challenges - unsigned(generated.size()) : per;
      for (unsigned i = 0; i < take; ++i)
        generated.emplace_back(bits.begin() + i * rbits, bits.begin() + (i + 1) * rbits);
    }
  }
  return top;
}

template <r1cs::constraint_system CS>
void snap_circuit::synthesize_challenge(CS& cs, unsigned ci, const top_vars_t& top) const {
  using namespace snap_ops;
  using opt = std::optional<ff::fr_t>;
  const porep::snap_shape_t& s = shape_;
  const porep::snap_partition_proof_t* p = witness_ ? &witness_->proof : nullptr;
  const auto& gen = gadgets::poseidon_gen_randomness_params();
  auto alloc = [&cs](const std::string& name, opt v) {
    r1cs::namespace_guard ns(cs, name);
    return num_t::alloc(cs, v);
  };
  const unsigned pbits = s.partition_bit_len, hbits = unsigned(s.hs.size());
  const std::span<const bit_t> partition_bits(top.kh_bits.data(), pbits);
  const std::span<const bit_t> h_select_bits(top.kh_bits.data() + pbits, hbits);
  const std::vector<num_t>& apex_leaves = top.apex_leaves;
  const std::vector<unsigned> r_arities = s.tree_r_arities();
  const std::vector<unsigned> d_arities(s.apex_height(), 2u);
  {
    const porep::snap_challenge_proof_t* cp = p ? &p->challenges[ci] : nullptr;
    std::vector<bit_t> c_bits = top.random_bits[ci];
    c_bits.insert(c_bits.end(), partition_bits.begin(), partition_bits.end());

    num_t c_high;
    {
      r1cs::namespace_guard ns(cs, "get_challenge_high_bits");
      std::vector<num_t> parts;
      for (unsigned k = 0; k < hbits; ++k) {
        const unsigned h = s.hs[k];
        num_t packed;
        {
          r1cs::namespace_guard pn(cs, [k] { return "c_high " + std::to_string(k); });
          packed = gadgets::pack_bits(cs, std::span<const bit_t>(c_bits).subspan(c_bits.size() - h));
        }
        opt v;
        if (packed.value && h_select_bits[k].value())
          v = *h_select_bits[k].value() ? *packed.value : ff::fr_t::zero();
        const num_t or_zero = alloc("c_high_or_zero " + std::to_string(k), v);
        cs.enforce("c_high_or_zero == c_high * h_select_bit", [&](lc_t lc) { return lc + packed.var; },
                   [&](lc_t lc) { return h_select_bits[k].add_to(lc, cs.one(), ff::fr_t::one()), lc; },
                   [&](lc_t lc) { return lc + or_zero.var; });
        parts.push_back(or_zero);
      }
      opt sum = ff::fr_t::zero();
      for (const num_t& x : parts) sum = sum && x.value ? opt(*sum + *x.value) : std::nullopt;
      c_high = alloc("c_high_selected", sum);
      cs.enforce("c_high_selected == dot(c_highs, h_select_bits)",
                 [&](lc_t lc) {
                   for (const num_t& x : parts) lc += x.var;
                   return lc;
                 },
                 [&](lc_t lc) { return lc + cs.one(); }, [&](lc_t lc) { return lc + c_high.var; });
    }
    num_t rho;
    {
      r1cs::namespace_guard ns(cs, "rho");
      const num_t in[2] = {top.phi, c_high};
      rho = gadgets::poseidon_hash_gadget(cs, gen, in);
    }
    const num_t leaf_r_old = alloc("leaf_r_old", cp ? opt(cp->r_old.leaf) : std::nullopt);
    const num_t leaf_d_new = alloc("leaf_d_new", cp ? opt(cp->d_new.leaf) : std::nullopt);
    num_t leaf_r_new;
    {
      r1cs::namespace_guard ns(cs, "leaf_r_new");
      const num_t d_rho = mul(cs, leaf_d_new, rho);
      leaf_r_new = gadgets::add_nums(cs, leaf_r_old, d_rho);
    }
    auto alloc_path = [&](const char* name, const porep::snap_opening_t* o, std::span<const unsigned> arities) {
      std::vector<std::vector<num_t>> path;
      for (std::size_t l = 0; l < arities.size(); ++l) {
        path.emplace_back();
        for (unsigned k = 0; k + 1 < arities[l]; ++k)
          path.back().push_back(alloc(std::string(name) + " sibling " + std::to_string(l) + "." + std::to_string(k),
                                      o ? opt(o->path.siblings[l][k]) : std::nullopt));
      }
      return path;
    };
    const std::span<const bit_t> all_bits(c_bits);
    {
      const auto path = alloc_path("path_r_old", cp ? &cp->r_old : nullptr, r_arities);
      r1cs::namespace_guard ns(cs, "por tree_r_old");
      por_no_challenge_input(cs, false, r_arities, all_bits, leaf_r_old, path, top.root_r_old);
    }
    {
      const auto path = alloc_path("path_r_new", cp ? &cp->r_new : nullptr, r_arities);
      r1cs::namespace_guard ns(cs, "por tree_r_new");
      por_no_challenge_input(cs, false, r_arities, all_bits, leaf_r_new, path, top.root_r_new);
    }
    num_t apex_leaf;
    {
      r1cs::namespace_guard ns(cs, "select_apex_leaf");
      apex_leaf = select(cs, apex_leaves, all_bits.subspan(s.apex_height(), s.apex_leaf_bit_len));
    }
    const auto path = alloc_path("path_to_apex_leaf", cp ? &cp->d_new : nullptr, d_arities);
    r1cs::namespace_guard ns(cs, "por to_apex_leaf");
    por_no_challenge_input(cs, true, d_arities, all_bits.first(s.apex_height()), leaf_d_new, path, apex_leaf);
  }
}

}  // namespace cuzk::circuits
