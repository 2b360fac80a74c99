#pragma once
// SHA-256 in R1CS, after bellperson gadgets/sha256.rs (FILECOIN_POREP.md §7
// "SHA-256 gadget"). Bits are MSB-first within each byte, bytes in message
// order (the standard's bit string). Structure kept from bellperson because
// the counts depend on it:
//  - padding and IV are constant bits, so they fold away;
//  - the additions feeding a and e are deferred ("lazy" registers) and done as
//    one addmany of 7 or 8 operands when the register is next read;
//  - one multi_eq_t per compression batches the addmany equalities.
// Costs: 25,840 rows for one block of 512 allocated bits from the IV; 44,874
// for sha256() of 512 allocated bits (bellperson test_full_block / test_full_hash).
#include <array>
#include <span>
#include <string>
#include <vector>

#include "gadgets/sha256_native.hpp"
#include "gadgets/uint32_word.hpp"

namespace cuzk::gadgets {

using sha256_state_words_t = std::array<uint32_word_t, 8>;

inline sha256_state_words_t sha256_iv_words() {
  sha256_state_words_t s;
  for (int i = 0; i < 8; ++i) s[i] = uint32_word_t::constant(sha256_iv[i]);
  return s;
}

namespace detail {

// bellperson's `Maybe`: either a word, or operands whose sum is still owed.
struct lazy_word_t {
  std::vector<uint32_word_t> pending;  // empty: `word` is concrete
  uint32_word_t word;

  template <r1cs::constraint_system CS>
  uint32_word_t resolve(multi_eq_t<CS>& meq, std::span<const uint32_word_t> extra = {}) {
    if (pending.empty()) return word;
    pending.insert(pending.end(), extra.begin(), extra.end());
    return uint32_addmany(meq, std::span<const uint32_word_t>(pending));
  }
};

template <r1cs::constraint_system CS>
uint32_word_t sigma(CS& cs, const uint32_word_t& x, std::size_t r1, std::size_t r2, std::size_t r3, bool shift_last,
                    const char* n1, const char* n2) {
  uint32_word_t s = x.rotr(r1);
  {
    r1cs::namespace_guard ns(cs, n1);
    s = uint32_xor(cs, s, x.rotr(r2));
  }
  r1cs::namespace_guard ns(cs, n2);
  return uint32_xor(cs, s, shift_last ? x.shr(r3) : x.rotr(r3));
}

template <r1cs::constraint_system CS>
void sha256_message_schedule(multi_eq_t<CS>& meq, std::vector<uint32_word_t>& w) {
  CS& cs = meq.cs();
  for (std::size_t i = 16; i < 64; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "w extension " + std::to_string(i); });
    uint32_word_t s0 = sigma(cs, w[i - 15], 7, 18, 3, true, "first xor for s0", "second xor for s0");
    uint32_word_t s1 = sigma(cs, w[i - 2], 17, 19, 10, true, "first xor for s1", "second xor for s1");
    std::array<uint32_word_t, 4> ops{w[i - 16], s0, w[i - 7], s1};
    r1cs::namespace_guard ns2(cs, "computation of w[i]");
    w.push_back(uint32_addmany(meq, std::span<const uint32_word_t>(ops)));
  }
}

}  // namespace detail

// One compression of a 512-bit block (MSB-first bits) into `state`; returns
// the new chaining value. Rows depend on which bits are constant.
template <r1cs::constraint_system CS>
sha256_state_words_t sha256_compression_gadget(CS& cs, std::span<const boolean_t> block,
                                               const sha256_state_words_t& state) {
  if (block.size() != 512) throw std::invalid_argument("sha256_compression_gadget: block must have 512 bits");
  std::vector<uint32_word_t> w;
  w.reserve(64);
  for (std::size_t i = 0; i < 16; ++i) w.push_back(uint32_word_t::from_bits_be(block.subspan(32 * i, 32)));
  multi_eq_t<CS> meq(cs);
  detail::sha256_message_schedule(meq, w);

  detail::lazy_word_t a{{}, state[0]}, e{{}, state[4]};
  uint32_word_t b = state[1], c = state[2], d = state[3], f = state[5], g = state[6], h = state[7];
  for (std::size_t i = 0; i < 64; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "compression round " + std::to_string(i); });
    uint32_word_t new_e;
    {
      r1cs::namespace_guard ns2(cs, "deferred e computation");
      new_e = e.resolve(meq);
    }
    uint32_word_t s1 = detail::sigma(cs, new_e, 6, 11, 25, false, "first xor for s1", "second xor for s1");
    uint32_word_t ch;
    {
      r1cs::namespace_guard ns2(cs, "ch");
      ch = uint32_ch(cs, new_e, f, g);
    }
    std::vector<uint32_word_t> temp1{h, s1, ch, uint32_word_t::constant(sha256_k[i]), w[i]};
    uint32_word_t new_a;
    {
      r1cs::namespace_guard ns2(cs, "deferred a computation");
      new_a = a.resolve(meq);
    }
    uint32_word_t s0 = detail::sigma(cs, new_a, 2, 13, 22, false, "first xor for s0", "second xor for s0");
    uint32_word_t maj;
    {
      r1cs::namespace_guard ns2(cs, "maj");
      maj = uint32_maj(cs, new_a, b, c);
    }
    h = g, g = f, f = new_e;
    e.pending = temp1;
    e.pending.push_back(d);
    d = c, c = b, b = new_a;
    a.pending = std::move(temp1);
    a.pending.push_back(s0);
    a.pending.push_back(maj);
  }
  sha256_state_words_t out;
  auto add2 = [&](const char* name, const uint32_word_t& x, const uint32_word_t& y) {
    r1cs::namespace_guard ns(cs, name);
    std::array<uint32_word_t, 2> ops{x, y};
    return uint32_addmany(meq, std::span<const uint32_word_t>(ops));
  };
  {
    r1cs::namespace_guard ns(cs, "deferred h0 computation");
    out[0] = a.resolve(meq, std::span(&state[0], 1));
  }
  out[1] = add2("new h1", state[1], b);
  out[2] = add2("new h2", state[2], c);
  out[3] = add2("new h3", state[3], d);
  {
    r1cs::namespace_guard ns(cs, "deferred h4 computation");
    out[4] = e.resolve(meq, std::span(&state[4], 1));
  }
  out[5] = add2("new h5", state[5], f);
  out[6] = add2("new h6", state[6], g);
  out[7] = add2("new h7", state[7], h);
  meq.flush();
  return out;
}

inline std::vector<boolean_t> sha256_state_to_bits_be(const sha256_state_words_t& s) {
  std::vector<boolean_t> out;
  out.reserve(256);
  for (const uint32_word_t& w : s)
    for (int i = 31; i >= 0; --i) out.push_back(w.bits[i]);
  return out;
}

// Compression of exactly one 512-bit block from the IV, no padding
// (bellperson sha256_block_no_padding). Returns 256 bits, MSB-first.
template <r1cs::constraint_system CS>
std::vector<boolean_t> sha256_block_no_padding_gadget(CS& cs, std::span<const boolean_t> block) {
  return sha256_state_to_bits_be(sha256_compression_gadget(cs, block, sha256_iv_words()));
}

// SHA-256 of a bit string whose length is a multiple of 8 (bellperson
// sha256): constant padding, one compression per block under namespace
// "block i". Returns the 256 digest bits, MSB-first.
template <r1cs::constraint_system CS>
std::vector<boolean_t> sha256_gadget(CS& cs, std::span<const boolean_t> input) {
  if (input.size() % 8 != 0) throw std::invalid_argument("sha256_gadget: input length must be a multiple of 8 bits");
  std::vector<boolean_t> padded(input.begin(), input.end());
  std::uint64_t bit_len = input.size();
  padded.push_back(boolean_t::constant(true));
  while ((padded.size() + 64) % 512 != 0) padded.push_back(boolean_t::constant(false));
  for (int i = 63; i >= 0; --i) padded.push_back(boolean_t::constant((bit_len >> i) & 1));
  sha256_state_words_t cur = sha256_iv_words();
  for (std::size_t blk = 0; blk < padded.size() / 512; ++blk) {
    r1cs::namespace_guard ns(cs, [blk] { return "block " + std::to_string(blk); });
    cur = sha256_compression_gadget(cs, std::span<const boolean_t>(padded).subspan(512 * blk, 512), cur);
  }
  return sha256_state_to_bits_be(cur);
}

}  // namespace cuzk::gadgets
