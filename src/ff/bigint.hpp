#pragma once
// Fixed-width unsigned integers as little-endian 64-bit limbs, constexpr so that
// every derived field constant (R, R^2, -p^-1) is computed from the modulus alone.
#include <array>
#include <cstddef>
#include <cstdint>

namespace cuzk::ff {

using u128 = unsigned __int128;

template <size_t N>
using limbs_t = std::array<uint64_t, N>;

// Adds with carry in and out; the compiler folds chains of these into adc.
constexpr uint64_t addc(uint64_t a, uint64_t b, uint64_t& carry) {
  u128 t = u128(a) + b + carry;
  carry = uint64_t(t >> 64);
  return uint64_t(t);
}

constexpr uint64_t subb(uint64_t a, uint64_t b, uint64_t& borrow) {
  u128 t = u128(a) - b - borrow;
  borrow = uint64_t(t >> 64) & 1;
  return uint64_t(t);
}

// hi:lo = a * b + c + d never overflows 128 bits.
constexpr uint64_t mac(uint64_t a, uint64_t b, uint64_t c, uint64_t& carry) {
  u128 t = u128(a) * b + c + carry;
  carry = uint64_t(t >> 64);
  return uint64_t(t);
}

template <size_t N>
constexpr bool big_less(const limbs_t<N>& a, const limbs_t<N>& b) {
  for (size_t i = N; i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i];
  }
  return false;
}

template <size_t N>
constexpr bool big_is_zero(const limbs_t<N>& a) {
  uint64_t acc = 0;
  for (auto x : a) acc |= x;
  return acc == 0;
}

// a += b, returns carry.
template <size_t N>
constexpr uint64_t big_add(limbs_t<N>& a, const limbs_t<N>& b) {
  uint64_t c = 0;
  for (size_t i = 0; i < N; ++i) a[i] = addc(a[i], b[i], c);
  return c;
}

// a -= b, returns borrow.
template <size_t N>
constexpr uint64_t big_sub(limbs_t<N>& a, const limbs_t<N>& b) {
  uint64_t c = 0;
  for (size_t i = 0; i < N; ++i) a[i] = subb(a[i], b[i], c);
  return c;
}

template <size_t N>
constexpr void big_shr1(limbs_t<N>& a) {
  for (size_t i = 0; i < N; ++i) {
    a[i] = (a[i] >> 1) | (i + 1 < N ? a[i + 1] << 63 : 0);
  }
}

template <size_t N>
constexpr bool big_bit(const limbs_t<N>& a, size_t i) {
  return (a[i / 64] >> (i % 64)) & 1;
}

template <size_t N>
constexpr size_t big_num_bits(const limbs_t<N>& a) {
  for (size_t i = N; i-- > 0;) {
    if (a[i] != 0) return 64 * i + 64 - size_t(__builtin_clzll(a[i]));
  }
  return 0;
}

// Quotient of a by a small divisor; the remainder goes to *rem when asked for.
template <size_t N>
constexpr limbs_t<N> big_div_small(const limbs_t<N>& a, uint64_t d, uint64_t* rem_out = nullptr) {
  limbs_t<N> q{};
  u128 rem = 0;
  for (size_t i = N; i-- > 0;) {
    u128 cur = (rem << 64) | a[i];
    q[i] = uint64_t(cur / d);
    rem = cur % d;
  }
  if (rem_out) *rem_out = uint64_t(rem);
  return q;
}

// a = a * m + add; returns the carry out of the top limb.
template <size_t N>
constexpr uint64_t big_mul_small_add(limbs_t<N>& a, uint64_t m, uint64_t add) {
  uint64_t c = add;
  for (size_t i = 0; i < N; ++i) a[i] = mac(a[i], m, 0, c);
  return c;
}

// (a + a) mod m for a < m.
template <size_t N>
constexpr limbs_t<N> big_double_mod(limbs_t<N> a, const limbs_t<N>& m) {
  uint64_t top = a[N - 1] >> 63;
  big_add(a, a);
  if (top || !big_less(a, m)) big_sub(a, m);
  return a;
}

// 2^bits mod m by repeated doubling; only used in constant evaluation.
template <size_t N>
constexpr limbs_t<N> big_pow2_mod(size_t bits, const limbs_t<N>& m) {
  limbs_t<N> a{};
  a[0] = 1;
  for (size_t i = 0; i < bits; ++i) a = big_double_mod(a, m);
  return a;
}

// -m^-1 mod 2^64 by Newton iteration (m odd); each step doubles the correct bits.
constexpr uint64_t neg_inv64(uint64_t m0) {
  uint64_t x = 1;
  for (int i = 0; i < 7; ++i) x *= 2 - m0 * x;
  return ~x + 1;
}

}  // namespace cuzk::ff
