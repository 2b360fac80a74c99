#pragma once
// A 32-bit word as 32 booleans, least significant first, after bellperson
// gadgets/uint32.rs (UInt32). Rotations and shifts only rename bits; xor,
// ch and maj work bit by bit (bit 0 first); addmany allocates the bits of the
// unreduced sum and proves it through a multi_eq_t.
#include <array>
#include <bit>
#include <span>
#include <string>
#include <vector>

#include "gadgets/multi_eq.hpp"

namespace cuzk::gadgets {

struct uint32_word_t {
  std::array<boolean_t, 32> bits;  // bits[i] has weight 2^i
  std::optional<std::uint32_t> value;

  static uint32_word_t constant(std::uint32_t v) {
    uint32_word_t w;
    for (int i = 0; i < 32; ++i) w.bits[i] = boolean_t::constant((v >> i) & 1);
    w.value = v;
    return w;
  }

  // 32 allocated bits, LSB first, each with its booleanity row.
  template <r1cs::constraint_system CS>
  static uint32_word_t alloc(CS& cs, std::optional<std::uint32_t> v) {
    uint32_word_t w;
    for (int i = 0; i < 32; ++i) {
      r1cs::namespace_guard ns(cs, [i] { return "allocated bit " + std::to_string(i); });
      w.bits[i] = alloc_boolean(cs, v ? std::optional<bool>((*v >> i) & 1) : std::nullopt);
    }
    w.value = v;
    return w;
  }

  // From 32 bits, most significant first (how SHA-256 reads message words).
  static uint32_word_t from_bits_be(std::span<const boolean_t> be) {
    uint32_word_t w;
    std::uint32_t v = 0;
    bool known = true;
    for (int i = 0; i < 32; ++i) {
      w.bits[i] = be[31 - i];
      std::optional<bool> b = w.bits[i].value();
      if (!b) known = false;
      else if (*b) v |= std::uint32_t(1) << i;
    }
    if (known) w.value = v;
    return w;
  }
  std::vector<boolean_t> to_bits_be() const { return {bits.rbegin(), bits.rend()}; }

  uint32_word_t rotr(std::size_t by) const {
    by %= 32;
    uint32_word_t w;
    for (std::size_t i = 0; i < 32; ++i) w.bits[i] = bits[(i + by) % 32];
    if (value) w.value = std::rotr(*value, int(by));
    return w;
  }
  uint32_word_t shr(std::size_t by) const {
    uint32_word_t w;
    for (std::size_t i = 0; i < 32; ++i) w.bits[i] = i + by < 32 ? bits[i + by] : boolean_t::constant(false);
    if (value) w.value = by >= 32 ? 0 : *value >> by;
    return w;
  }
};

template <r1cs::constraint_system CS>
uint32_word_t uint32_xor(CS& cs, const uint32_word_t& a, const uint32_word_t& b) {
  uint32_word_t w;
  for (int i = 0; i < 32; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "xor of bit " + std::to_string(i); });
    w.bits[i] = boolean_xor(cs, a.bits[i], b.bits[i]);
  }
  if (a.value && b.value) w.value = *a.value ^ *b.value;
  return w;
}

// Bitwise AND (not used by SHA-256; bellperson has no UInt32::and, so this is
// simply 32 boolean_and calls).
template <r1cs::constraint_system CS>
uint32_word_t uint32_and(CS& cs, const uint32_word_t& a, const uint32_word_t& b) {
  uint32_word_t w;
  for (int i = 0; i < 32; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "and of bit " + std::to_string(i); });
    w.bits[i] = boolean_and(cs, a.bits[i], b.bits[i]);
  }
  if (a.value && b.value) w.value = *a.value & *b.value;
  return w;
}

template <r1cs::constraint_system CS>
uint32_word_t uint32_ch(CS& cs, const uint32_word_t& a, const uint32_word_t& b, const uint32_word_t& c) {
  uint32_word_t w;
  for (int i = 0; i < 32; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "bit " + std::to_string(i); });
    w.bits[i] = sha256_ch(cs, a.bits[i], b.bits[i], c.bits[i]);
  }
  if (a.value && b.value && c.value) w.value = (*a.value & *b.value) ^ (~*a.value & *c.value);
  return w;
}

template <r1cs::constraint_system CS>
uint32_word_t uint32_maj(CS& cs, const uint32_word_t& a, const uint32_word_t& b, const uint32_word_t& c) {
  uint32_word_t w;
  for (int i = 0; i < 32; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "bit " + std::to_string(i); });
    w.bits[i] = sha256_maj(cs, a.bits[i], b.bits[i], c.bits[i]);
  }
  if (a.value && b.value && c.value)
    w.value = (*a.value & *b.value) ^ (*a.value & *c.value) ^ (*b.value & *c.value);
  return w;
}

// Sum of 2..10 words mod 2^32 (bellperson UInt32::addmany). All-constant
// operands fold to a constant with no rows. Otherwise the n result bits of
// the full sum, n = bitlength(#ops * (2^32 - 1)), are allocated (booleanity
// each) and multi_eq proves sum(operands) == sum(result bits).
template <r1cs::constraint_system CS>
uint32_word_t uint32_addmany(multi_eq_t<CS>& meq, std::span<const uint32_word_t> ops) {
  if (ops.size() < 2 || ops.size() > 10) throw std::invalid_argument("uint32_addmany: needs 2..10 operands");
  CS& cs = meq.cs();
  // A plain integer plus a flag: GCC 12 misreads std::optional<uint64_t> here
  // as maybe-uninitialized.
  std::uint64_t sum = 0;
  bool known = true, all_constant = true;
  for (const uint32_word_t& op : ops) {
    if (op.value) sum += *op.value;
    else known = false;
    for (const boolean_t& b : op.bits) all_constant &= b.is_constant();
  }
  if (all_constant && known) return uint32_word_t::constant(std::uint32_t(sum));
  std::size_t n = std::bit_width(std::uint64_t(ops.size()) * 0xffffffffULL);
  std::vector<allocated_bit_t> result;
  result.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "result bit " + std::to_string(i); });
    result.push_back(allocated_bit_t::alloc(cs, known ? std::optional<bool>((sum >> i) & 1) : std::nullopt));
  }
  meq.enforce_equal(
      n,
      [&](linear_combination_t& lc, std::size_t shift) {
        lc.reserve(lc.size() + 32 * ops.size());
        for (const uint32_word_t& op : ops)
          for (std::size_t b = 0; b < 32; ++b) op.bits[b].add_to(lc, cs.one(), pow2_fr(shift + b));
      },
      [&](linear_combination_t& lc, std::size_t shift) {
        lc.reserve(lc.size() + n);
        for (std::size_t k = 0; k < n; ++k) lc += pow2_fr(shift + k) * result[k].var;
      });
  uint32_word_t w;
  for (int i = 0; i < 32; ++i) w.bits[i] = boolean_t::is(result[i]);
  if (known) w.value = std::uint32_t(sum);
  return w;
}

}  // namespace cuzk::gadgets
