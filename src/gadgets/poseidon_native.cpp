#include "gadgets/poseidon_native.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace cuzk::gadgets {

using ff::fr_t;

namespace {

constexpr std::size_t max_width = 12;
using state_t = std::array<fr_t, max_width>;

inline fr_t quintic(const fr_t& x) {
  fr_t x2 = x.sqr();
  return x2.sqr() * x;
}

void mix_dense(state_t& s, const std::vector<fr_t>& m, std::size_t t) {
  state_t out;
  for (std::size_t j = 0; j < t; ++j) {
    fr_t acc = fr_t::zero();
    for (std::size_t i = 0; i < t; ++i) acc += s[i] * m[i * t + j];
    out[j] = acc;
  }
  s = out;
}

void mix_sparse(state_t& s, const poseidon_sparse_matrix_t& sp, std::size_t t) {
  fr_t s0 = fr_t::zero();
  for (std::size_t i = 0; i < t; ++i) s0 += s[i] * sp.col0[i];
  for (std::size_t j = 1; j < t; ++j) s[j] += s[0] * sp.row0[j - 1];
  s[0] = s0;
}

state_t initial_state(const poseidon_params_t& p, std::span<const fr_t> inputs) {
  if (inputs.size() != p.arity) {
    throw std::invalid_argument("poseidon_hash: " + std::to_string(inputs.size()) + " inputs for arity " +
                                std::to_string(p.arity));
  }
  if (p.width > max_width) throw std::invalid_argument("poseidon_hash: width above 12 is not supported natively");
  state_t s{};
  s[0] = p.domain_tag;
  for (std::size_t i = 0; i < inputs.size(); ++i) s[i + 1] = inputs[i];
  return s;
}

}  // namespace

fr_t poseidon_hash(const poseidon_params_t& p, std::span<const fr_t> inputs) {
  const std::size_t t = p.width, half = p.full_rounds / 2, rounds = p.total_rounds();
  state_t s = initial_state(p, inputs);
  const fr_t* key = p.compressed_constants.data();
  for (std::size_t i = 0; i < t; ++i) s[i] += key[i];
  key += t;
  for (std::size_t r = 0; r < rounds; ++r) {
    bool full = r < half || r >= half + p.partial_rounds;
    if (full) {
      bool keyed = r + 1 < rounds;  // the key of the last round was folded away
      for (std::size_t i = 0; i < t; ++i) s[i] = keyed ? quintic(s[i]) + key[i] : quintic(s[i]);
      if (keyed) key += t;
    } else {
      s[0] = quintic(s[0]) + *key++;
    }
    if (r + 1 < half) mix_dense(s, p.mds, t);
    else if (r + 1 == half) mix_dense(s, p.pre_sparse, t);
    else if (r < half + p.partial_rounds) mix_sparse(s, p.sparse[r - half], t);
    else mix_dense(s, p.mds, t);
  }
  return s[1];
}

fr_t poseidon_hash(std::span<const fr_t> inputs) { return poseidon_hash(poseidon_params(inputs.size()), inputs); }

fr_t poseidon_hash_reference(const poseidon_params_t& p, std::span<const fr_t> inputs) {
  const std::size_t t = p.width, half = p.full_rounds / 2;
  state_t s = initial_state(p, inputs);
  for (std::size_t r = 0; r < p.total_rounds(); ++r) {
    for (std::size_t i = 0; i < t; ++i) s[i] += p.round_constants[r * t + i];
    bool full = r < half || r >= half + p.partial_rounds;
    for (std::size_t i = 0; i < (full ? t : 1); ++i) s[i] = quintic(s[i]);
    mix_dense(s, p.mds, t);
  }
  return s[1];
}

}  // namespace cuzk::gadgets
