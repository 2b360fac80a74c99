#pragma once
// Packing bits into field elements, after bellperson gadgets/multipack.rs and
// storage-proofs-core's pack_bits: chunks of at most 254 bits (Fr's
// capacity), bit i of a chunk weighted 2^i.
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "gadgets/allocated_num.hpp"

namespace cuzk::gadgets {

inline constexpr std::size_t fr_capacity_bits = 254;

namespace detail {
inline void add_packed(linear_combination_t& lc, std::span<const boolean_t> bits, variable_t one) {
  lc.reserve(lc.size() + bits.size());
  fr_t coeff = fr_t::one();
  for (const boolean_t& b : bits) {
    b.add_to(lc, one, coeff);
    coeff += coeff;
  }
}

inline std::optional<fr_t> packed_value(std::span<const boolean_t> bits) {
  ff::limbs_t<4> x{};
  for (std::size_t i = 0; i < bits.size(); ++i) {
    std::optional<bool> b = bits[i].value();
    if (!b) return std::nullopt;
    if (*b) x[i / 64] |= std::uint64_t(1) << (i % 64);
  }
  return fr_t::from_canonical(x);
}
}  // namespace detail

// multipack::pack_into_inputs: per chunk of 254 bits, alloc_input u and row
// (sum 2^i <bit_i>) * 1 = u. Returns the input variables.
template <r1cs::constraint_system CS>
std::vector<variable_t> pack_into_inputs(CS& cs, std::span<const boolean_t> bits) {
  std::vector<variable_t> out;
  for (std::size_t start = 0, i = 0; start < bits.size(); start += fr_capacity_bits, ++i) {
    auto chunk = bits.subspan(start, std::min(fr_capacity_bits, bits.size() - start));
    variable_t u = cs.alloc_input([i] { return "input " + std::to_string(i); },
                                  [&] { return detail::packed_value(chunk); });
    cs.enforce([i] { return "packing constraint " + std::to_string(i); },
               [&](linear_combination_t lc) { return detail::add_packed(lc, chunk, cs.one()), lc; },
               [&](linear_combination_t lc) { return lc + cs.one(); },
               [&](linear_combination_t lc) { return lc + u; });
    out.push_back(u);
  }
  return out;
}

// pack_bits (at most 254 bits): alloc y, row (sum 2^i <bit_i>) * 1 = y.
// std::invalid_argument for longer inputs.
template <r1cs::constraint_system CS>
allocated_num_t pack_bits(CS& cs, std::span<const boolean_t> bits) {
  if (bits.size() > fr_capacity_bits) {
    throw std::invalid_argument("pack_bits: " + std::to_string(bits.size()) + " bits exceed the 254-bit capacity");
  }
  allocated_num_t y = allocated_num_t::alloc(cs, detail::packed_value(bits), "packed");
  cs.enforce("pack", [&](linear_combination_t lc) { return detail::add_packed(lc, bits, cs.one()), lc; },
             [&](linear_combination_t lc) { return lc + cs.one(); },
             [&](linear_combination_t lc) { return lc + y.var; });
  return y;
}

// The public-input values pack_into_inputs produces (multipack::compute_multipacking).
inline std::vector<fr_t> compute_multipacking(const std::vector<bool>& bits) {
  std::vector<fr_t> out;
  for (std::size_t start = 0; start < bits.size(); start += fr_capacity_bits) {
    ff::limbs_t<4> x{};
    for (std::size_t i = start; i < std::min(bits.size(), start + fr_capacity_bits); ++i)
      if (bits[i]) x[(i - start) / 64] |= std::uint64_t(1) << ((i - start) % 64);
    out.push_back(*fr_t::from_canonical(x));
  }
  return out;
}

// multipack::bytes_to_bits (MSB-first within each byte) and bytes_to_bits_le.
inline std::vector<bool> bytes_to_bits(std::span<const std::uint8_t> bytes) {
  std::vector<bool> out;
  for (std::uint8_t b : bytes)
    for (int i = 7; i >= 0; --i) out.push_back((b >> i) & 1);
  return out;
}
inline std::vector<bool> bytes_to_bits_le(std::span<const std::uint8_t> bytes) {
  std::vector<bool> out;
  for (std::uint8_t b : bytes)
    for (int i = 0; i < 8; ++i) out.push_back((b >> i) & 1);
  return out;
}

}  // namespace cuzk::gadgets
