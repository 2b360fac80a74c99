#pragma once
// Prime field in Montgomery form over N 64-bit limbs (little-endian). Only the
// modulus and a small quadratic non-residue are supplied per field; R, R^2 and
// -p^-1 mod 2^64 are derived at compile time. Values are always fully reduced,
// so equality is limb equality and the bytes match the 32-bit-limb GPU layout.
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ff/bigint.hpp"
#include "ff/mod_add_x86.hpp"
#include "ff/mont_mul_x86.hpp"
#include "ff/mont_sqr_x86.hpp"

namespace cuzk::ff {

template <class P>
struct mont_field {
  static constexpr size_t n_limbs = P::n_limbs;
  using limbs = limbs_t<n_limbs>;
  static constexpr limbs modulus = P::modulus;
  static constexpr uint64_t m_inv = neg_inv64(modulus[0]);
  static constexpr limbs r1 = big_pow2_mod(64 * n_limbs, modulus);
  static constexpr limbs r2 = big_pow2_mod(128 * n_limbs, modulus);
  static constexpr size_t bits = big_num_bits(modulus);
  static constexpr size_t n_bytes = (bits + 7) / 8;
  // p - 1 = 2^two_adicity * odd
  static constexpr size_t two_adicity = [] {
    limbs t = modulus;
    t[0] -= 1;
    size_t s = 0;
    while (!big_bit(t, s)) ++s;
    return s;
  }();

  limbs l;  // Montgomery representation, always < modulus

  static constexpr mont_field zero() { return mont_field{}; }
  static constexpr mont_field one() { return mont_field{r1}; }

  static constexpr mont_field from_mont(const limbs& m) { return mont_field{m}; }

  // x < modulus required; returns nullopt otherwise.
  static constexpr std::optional<mont_field> from_canonical(const limbs& x) {
    if (!big_less(x, modulus)) return std::nullopt;
    return mont_field{x} * mont_field{r2};
  }

  static constexpr mont_field from_u64(uint64_t v) {
    limbs x{};
    x[0] = v;
    if (!big_less(x, modulus)) big_sub(x, modulus);
    return mont_field{x} * mont_field{r2};
  }

  constexpr limbs to_canonical() const {
    limbs o{};
    o[0] = 1;
    return (*this * mont_field{o}).l;
  }

  // Big-endian canonical bytes (the Zcash/blst convention for Fp).
  static std::optional<mont_field> from_bytes_be(std::span<const uint8_t> b) {
    if (b.size() != n_bytes) return std::nullopt;
    limbs x{};
    for (size_t i = 0; i < n_bytes; ++i) {
      size_t k = n_bytes - 1 - i;
      x[k / 8] |= uint64_t(b[i]) << (8 * (k % 8));
    }
    return from_canonical(x);
  }
  void to_bytes_be(std::span<uint8_t> b) const {
    limbs x = to_canonical();
    for (size_t i = 0; i < n_bytes; ++i) {
      size_t k = n_bytes - 1 - i;
      b[i] = uint8_t(x[k / 8] >> (8 * (k % 8)));
    }
  }
  // Little-endian canonical bytes (bellman/snarkjs scalar convention).
  static std::optional<mont_field> from_bytes_le(std::span<const uint8_t> b) {
    if (b.size() != n_bytes) return std::nullopt;
    limbs x{};
    for (size_t i = 0; i < n_bytes; ++i) x[i / 8] |= uint64_t(b[i]) << (8 * (i % 8));
    return from_canonical(x);
  }
  void to_bytes_le(std::span<uint8_t> b) const {
    limbs x = to_canonical();
    for (size_t i = 0; i < n_bytes; ++i) b[i] = uint8_t(x[i / 8] >> (8 * (i % 8)));
  }

  // Canonical value as big-endian hex, zero-padded to the modulus width.
  std::string to_hex() const {
    static constexpr char digits[] = "0123456789abcdef";
    limbs x = to_canonical();
    std::string s(2 * n_bytes, '0');
    for (size_t i = 0; i < 2 * n_bytes; ++i) {
      size_t nib = 2 * n_bytes - 1 - i;
      s[i] = digits[(x[nib / 16] >> (4 * (nib % 16))) & 15];
    }
    return s;
  }
  // Accepts an optional 0x prefix and any number of digits; rejects values >= p.
  static constexpr std::optional<mont_field> from_hex(std::string_view s) {
    if (s.starts_with("0x") || s.starts_with("0X")) s.remove_prefix(2);
    if (s.empty()) return std::nullopt;  // a bare prefix is no number
    limbs x{};
    size_t nib = 0;
    for (size_t i = s.size(); i-- > 0; ++nib) {
      char c = s[i];
      uint64_t d;
      if (c >= '0' && c <= '9') d = uint64_t(c - '0');
      else if (c >= 'a' && c <= 'f') d = uint64_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') d = uint64_t(c - 'A' + 10);
      else return std::nullopt;
      if (d == 0) continue;
      if (nib >= 16 * n_limbs) return std::nullopt;
      x[nib / 16] |= d << (4 * (nib % 16));
    }
    return from_canonical(x);
  }

  // Canonical value in decimal (snarkjs' JSON convention).
  std::string to_decimal() const {
    limbs x = to_canonical();
    std::string s;
    do {
      uint64_t digit = 0;
      x = big_div_small(x, 10, &digit);
      s.push_back(char('0' + digit));
    } while (!big_is_zero(x));
    return {s.rbegin(), s.rend()};
  }
  // Decimal digits only; rejects empty strings and values >= p.
  static std::optional<mont_field> from_decimal(std::string_view s) {
    if (s.empty()) return std::nullopt;
    limbs x{};
    for (char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
      if (big_mul_small_add(x, 10, uint64_t(c - '0')) != 0) return std::nullopt;
    }
    return from_canonical(x);
  }

  constexpr bool is_zero() const { return big_is_zero(l); }
  constexpr bool is_one() const { return l == r1; }
  constexpr bool operator==(const mont_field&) const = default;

  // Portable reference arithmetic on raw limbs: used in constant evaluation,
  // on targets without the x86 kernels, and as the oracle in their tests.
  static constexpr limbs add_generic(limbs a, const limbs& b) {
    uint64_t c = big_add(a, b);
    if (c || !big_less(a, modulus)) big_sub(a, modulus);
    return a;
  }
  static constexpr limbs sub_generic(limbs a, const limbs& b) {
    if (big_sub(a, b)) big_add(a, modulus);
    return a;
  }
  // CIOS Montgomery multiplication (Koc, Acar, Kaliski 1996, "Analyzing and
  // comparing Montgomery multiplication algorithms", section 4).
  static constexpr limbs mul_generic(const limbs& a, const limbs& b) {
    limbs t{};
    uint64_t t_hi = 0;
    for (size_t i = 0; i < n_limbs; ++i) {
      uint64_t c = 0;
      for (size_t j = 0; j < n_limbs; ++j) t[j] = mac(a[j], b[i], t[j], c);
      uint64_t c2 = 0;
      uint64_t top = addc(t_hi, c, c2);
      uint64_t m = t[0] * m_inv;
      c = 0;
      mac(m, modulus[0], t[0], c);
      for (size_t j = 1; j < n_limbs; ++j) t[j - 1] = mac(m, modulus[j], t[j], c);
      uint64_t c3 = 0;
      t[n_limbs - 1] = addc(top, c, c3);
      t_hi = c2 + c3;
    }
    if (t_hi || !big_less(t, modulus)) big_sub(t, modulus);
    return t;
  }

  // At run time on x86-64 with BMI2/ADX the 4- and 6-limb fields take the asm
  // kernels (mont_mul_x86.hpp, mont_sqr_x86.hpp, mod_add_x86.hpp), which write
  // the result with 64-bit stores straight into its destination: the operators
  // returning a value build it in the return slot rather than in a copy of an
  // operand. always_inline keeps the kernel-or-generic choice inside each
  // caller, so a translation unit compiled without ADX cannot hand the linker
  // a generic copy of these. Assigning a returned value to an existing object
  // (x = a * b) still costs a copy that GCC makes with vector moves, which
  // cannot forward from the kernel's 64-bit stores: ~25 cycles of latency on
  // Zen 5. x *= b, and initialisation (auto z = a * b), have no copy.
  [[gnu::always_inline]] constexpr mont_field& operator+=(const mont_field& b) {
    add_to(*this, *this, b);
    return *this;
  }
  [[gnu::always_inline]] constexpr mont_field& operator-=(const mont_field& b) {
    sub_to(*this, *this, b);
    return *this;
  }
  [[gnu::always_inline]] constexpr mont_field& operator*=(const mont_field& b) {
    mul_to(*this, *this, b);
    return *this;
  }

  [[gnu::always_inline]] friend constexpr mont_field operator+(const mont_field& a, const mont_field& b) {
    mont_field r;
    add_to(r, a, b);
    return r;
  }
  [[gnu::always_inline]] friend constexpr mont_field operator-(const mont_field& a, const mont_field& b) {
    mont_field r;
    sub_to(r, a, b);
    return r;
  }
  [[gnu::always_inline]] friend constexpr mont_field operator*(const mont_field& a, const mont_field& b) {
    mont_field r;
    mul_to(r, a, b);
    return r;
  }
  [[gnu::always_inline]] constexpr mont_field operator-() const {
    mont_field r;
    sub_to(r, zero(), *this);
    return r;
  }
  [[gnu::always_inline]] constexpr mont_field dbl() const {
    mont_field r;
    add_to(r, *this, *this);
    return r;
  }
  [[gnu::always_inline]] constexpr mont_field sqr() const {
    mont_field r;
    sqr_to(r, *this);
    return r;
  }

  template <size_t M>
  constexpr mont_field pow(const limbs_t<M>& e) const {
    mont_field r = one();
    for (size_t i = big_num_bits(e); i-- > 0;) {
      sqr_to(r, r);  // in place: no copy of a returned temporary
      if (big_bit(e, i)) r *= *this;
    }
    return r;
  }
  constexpr mont_field pow(uint64_t e) const { return pow(limbs_t<1>{e}); }

  // Fermat inversion; 0 maps to 0. Batch callers should use batch_inverse.
  constexpr mont_field inverse() const {
    limbs e = modulus;
    e[0] -= 2;
    return pow(e);
  }

  // Legendre symbol: 1 residue, -1 non-residue, 0 zero.
  int legendre() const {
    limbs e = modulus;
    e[0] -= 1;
    big_shr1(e);
    mont_field t = pow(e);
    if (t.is_zero()) return 0;
    return t.is_one() ? 1 : -1;
  }

  // Tonelli-Shanks (Cohen, "A Course in Computational Algebraic Number Theory",
  // algorithm 1.5.1); for p = 3 mod 4 it reduces to a^((p+1)/4).
  std::optional<mont_field> sqrt() const {
    if (is_zero()) return zero();
    limbs q = modulus;
    q[0] -= 1;
    for (size_t i = 0; i < two_adicity; ++i) big_shr1(q);
    limbs q1 = q;  // (q + 1) / 2
    q1[0] += 1;    // q is odd so no carry
    big_shr1(q1);
    mont_field z = from_u64(P::nonresidue).pow(q);
    mont_field x = pow(q1);
    mont_field b = pow(q);
    size_t m = two_adicity;
    while (!b.is_one()) {
      size_t k = 0;
      mont_field t = b;
      while (!t.is_one()) {
        t = t.sqr();
        if (++k == m) return std::nullopt;
      }
      for (size_t i = 0; i + k + 1 < m; ++i) z = z.sqr();
      x *= z;
      z = z.sqr();
      b *= z;
      m = k;
    }
    return x;
  }

  // Lexicographic order of canonical values; used for the encoding sign bit.
  bool is_lexicographically_largest() const {
    limbs half = modulus;
    big_shr1(half);  // (p - 1) / 2
    return big_less(half, to_canonical());
  }

  template <class Rng>
  static mont_field random(Rng& rng) {
    for (;;) {
      limbs x{};
      for (auto& w : x) w = uint64_t(rng());
      size_t top = bits % 64;
      if (top) x[n_limbs - 1] &= (uint64_t(1) << top) - 1;
      if (auto f = from_canonical(x)) return *f;
    }
  }

 private:
  // r = a op b; r may alias a or b.
  [[gnu::always_inline]] static constexpr void add_to(mont_field& r, const mont_field& a, const mont_field& b) {
#if CUZK_FF_X86_ADX
    if constexpr (x86::has_kernels<n_limbs>) {
      if (!std::is_constant_evaluated()) return x86::mod_add<mont_field>(r.l, a.l, b.l);
    }
#endif
    r.l = add_generic(a.l, b.l);
  }
  [[gnu::always_inline]] static constexpr void sub_to(mont_field& r, const mont_field& a, const mont_field& b) {
#if CUZK_FF_X86_ADX
    if constexpr (x86::has_kernels<n_limbs>) {
      if (!std::is_constant_evaluated()) return x86::mod_sub<mont_field>(r.l, a.l, b.l);
    }
#endif
    r.l = sub_generic(a.l, b.l);
  }
  [[gnu::always_inline]] static constexpr void mul_to(mont_field& r, const mont_field& a, const mont_field& b) {
#if CUZK_FF_X86_ADX
    if constexpr (x86::has_kernels<n_limbs>) {
      if (!std::is_constant_evaluated()) return x86::mont_mul<mont_field>(r.l, a.l, b.l);
    }
#endif
    r.l = mul_generic(a.l, b.l);
  }
  [[gnu::always_inline]] static constexpr void sqr_to(mont_field& r, const mont_field& a) {
#if CUZK_FF_X86_ADX
    if constexpr (x86::has_kernels<n_limbs>) {
      if (!std::is_constant_evaluated()) return x86::mont_sqr<mont_field>(r.l, a.l);
    }
#endif
    r.l = mul_generic(a.l, a.l);
  }
};

// Montgomery's trick: one inversion plus 3(n-1) multiplications. Zeros stay zero.
template <class F>
void batch_inverse(std::span<F> v) {
  std::vector<F> prefix(v.size());
  F acc = F::one();
  for (size_t i = 0; i < v.size(); ++i) {
    prefix[i] = acc;
    if (!v[i].is_zero()) acc *= v[i];
  }
  F inv = acc.inverse();
  for (size_t i = v.size(); i-- > 0;) {
    if (v[i].is_zero()) continue;
    F vi = v[i];
    v[i] = inv * prefix[i];
    inv *= vi;
  }
}

}  // namespace cuzk::ff
