#pragma once
// Distinct coefficients of a compiled circuit, interned: index 0 is +1 and
// index 1 is -1, so the two commonest coefficients need no multiplication.
// The rest are powers of two (bit packing, MultiEq) and Poseidon's round
// constants and matrix entries (a few thousand values in all).
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::circuits {

class porep_coeff_table_t {
 public:
  static constexpr std::uint16_t plus_one = 0, minus_one = 1;

  porep_coeff_table_t() {
    intern(ff::fr_t::one());
    intern(-ff::fr_t::one());
  }

  // Indices fit 16 bits (porep_sparse_rows_t packs them): PoRep has a few
  // thousand distinct coefficients; more means the circuit changed.
  std::uint16_t intern(const ff::fr_t& c) {
    const auto l = c.to_canonical();
    const key_t k{l[0], l[1], l[2], l[3]};
    if (auto it = index_.find(k); it != index_.end()) return it->second;
    if (values_.size() > UINT16_MAX) throw std::length_error("porep_coeff_table_t: more than 2^16 distinct coefficients");
    const auto i = std::uint16_t(values_.size());
    index_.emplace(k, i);
    values_.push_back(c);
    return i;
  }

  const ff::fr_t& operator[](std::uint16_t i) const { return values_[i]; }
  std::size_t size() const { return values_.size(); }
  const std::vector<ff::fr_t>& values() const { return values_; }

 private:
  struct key_t {
    std::uint64_t l0, l1, l2, l3;
    bool operator==(const key_t&) const = default;
  };
  struct key_hash {
    std::size_t operator()(const key_t& k) const { return k.l0 ^ (k.l1 * 0x9e3779b97f4a7c15ull) ^ (k.l2 << 1) ^ k.l3; }
  };
  std::unordered_map<key_t, std::uint16_t, key_hash> index_;
  std::vector<ff::fr_t> values_;
};

}  // namespace cuzk::circuits
