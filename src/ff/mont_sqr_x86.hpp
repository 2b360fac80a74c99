#pragma once
// Montgomery squaring for 4 and 6 limbs on x86-64 with BMI2/ADX: the square is
// formed first with each cross product a[i]*a[j] (i < j) computed once, then
// reduced. N(N-1)/2 + N + N^2 mulx: 26 instead of 32 for 4 limbs, 57 instead of
// 72 for 6.
//
// Steps (T0..T(2N-1) is the square, low word first):
//  1. cross products: sum over i < j of a[i]*a[j] into T1..T(2N-2);
//  2. doubling on the CF chain interleaved with the diagonal squares a[i]^2 on
//     the OF chain;
//  3. Montgomery reduction of the low half, L = (T0..T(N-1) + m*p) / 2^64N <= p,
//     in the same renaming rows as the multiplication (mont_mul_x86.hpp);
//  4. L + the high half <= 2p - 1 (the high half is floor(a^2 / 2^64N) < p),
//     which the shared conditional subtraction (x86_adx.hpp) brings below p.
// For 6 limbs the twelve words do not fit the registers: finished cross-product
// words go to a stack buffer, and the high half is added back from it.
// Zen 5, x = x.sqr() chains: Fp 118 cycles against 142 with mont_mul_6(a, a);
// Fr 76 against 79 (both include ~25 cycles for copying the returned value).
#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"
#include "ff/x86_adx.hpp"

namespace cuzk::ff::x86 {

#if CUZK_FF_X86_ADX

// One reduction row on five rotating accumulator words, t4 arriving as 0: the
// same step sequence as CUZK_X86_ROW4_RED in mont_mul_x86.hpp.
#define CUZK_X86_SQR4_MULADD(pj, tj, tj1) \
  "mulxq %[" #pj "], %[lo], %[hi]\n\t"     \
  "adoxq %[lo], %[" #tj "]\n\t"            \
  "adcxq %[hi], %[" #tj1 "]\n\t"
#define CUZK_X86_SQR4_RED(t0, t1, t2, t3, t4) \
  "movabsq %[minv], %%rdx\n\t"                 \
  "imulq %[" #t0 "], %%rdx\n\t"                \
  "xorl %k[lo], %k[lo]\n\t"                    \
  CUZK_X86_SQR4_MULADD(p0, t0, t1)             \
  CUZK_X86_SQR4_MULADD(p1, t1, t2)             \
  CUZK_X86_SQR4_MULADD(p2, t2, t3)             \
  CUZK_X86_SQR4_MULADD(p3, t3, t4)             \
  "adoxq %[" #t0 "], %[" #t4 "]\n\t"

// r = a^2/2^256 mod p for a < p < 2^255; r may alias a.
template <class F>
inline void mont_sqr_4(limbs_t<4>& r, const limbs_t<4>& a) {
  static_assert(F::modulus[3] >> 63 == 0, "2p must fit 4 limbs");
  constexpr const limbs_t<4>& p = modulus_v<F>;
  uint64_t T0, T1, T2, T3, T4, T5, T6, T7, X, lo, hi, rdx;
  asm(  // 1. cross products
      "movq 0(%[a]), %%rdx\n\t"
      "mulxq 8(%[a]), %[T1], %[T2]\n\t"   // a0*a1 at word 1
      "mulxq 16(%[a]), %[lo], %[T3]\n\t"  // a0*a2 at word 2
      "addq %[lo], %[T2]\n\t"
      "mulxq 24(%[a]), %[lo], %[T4]\n\t"  // a0*a3 at word 3
      "adcq %[lo], %[T3]\n\t"
      "movq 8(%[a]), %%rdx\n\t"
      "mulxq 24(%[a]), %[lo], %[T5]\n\t"  // a1*a3 at word 4
      "adcq %[lo], %[T4]\n\t"
      "adcq $0, %[T5]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"  // a1*a2 at word 3
      "addq %[lo], %[T3]\n\t"
      "adcq %[hi], %[T4]\n\t"
      "movq 16(%[a]), %%rdx\n\t"
      "mulxq 24(%[a]), %[lo], %[T6]\n\t"  // a2*a3 at word 5
      "adcq %[lo], %[T5]\n\t"
      "adcq $0, %[T6]\n\t"
      // 2. T = 2*T + diagonal; the xor zeroes T7 and both flags
      "xorl %k[T7], %k[T7]\n\t"
      "movq 0(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[T0], %[hi]\n\t"
      "adcxq %[T1], %[T1]\n\t"
      "adoxq %[hi], %[T1]\n\t"
      "movq 8(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[T2], %[T2]\n\t"
      "adoxq %[lo], %[T2]\n\t"
      "adcxq %[T3], %[T3]\n\t"
      "adoxq %[hi], %[T3]\n\t"
      "movq 16(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[T4], %[T4]\n\t"
      "adoxq %[lo], %[T4]\n\t"
      "adcxq %[T5], %[T5]\n\t"
      "adoxq %[hi], %[T5]\n\t"
      "movq 24(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[T6], %[T6]\n\t"
      "adoxq %[lo], %[T6]\n\t"
      "adcxq %[T7], %[T7]\n\t"
      "adoxq %[hi], %[T7]\n\t"
      // 3. reduce T0..T3; X is the fresh top word of the first row
      "xorl %k[X], %k[X]\n\t"
      CUZK_X86_SQR4_RED(T0, T1, T2, T3, X)
      CUZK_X86_SQR4_RED(T1, T2, T3, X, T0)
      CUZK_X86_SQR4_RED(T2, T3, X, T0, T1)
      CUZK_X86_SQR4_RED(T3, X, T0, T1, T2)
      // 4. L (X T0 T1 T2) + high half
      "addq %[T4], %[X]\n\t"
      "adcq %[T5], %[T0]\n\t"
      "adcq %[T6], %[T1]\n\t"
      "adcq %[T7], %[T2]\n\t"
      : [T0] "=&r"(T0), [T1] "=&r"(T1), [T2] "=&r"(T2), [T3] "=&r"(T3), [T4] "=&r"(T4),
        [T5] "=&r"(T5), [T6] "=&r"(T6), [T7] "=&r"(T7), [X] "=&r"(X), [lo] "=&r"(lo),
        [hi] "=&r"(hi), "=&d"(rdx)
      : [a] "r"(a.data()), "m"(a), [minv] "i"(F::m_inv), [p0] "m"(p[0]), [p1] "m"(p[1]),
        [p2] "m"(p[2]), [p3] "m"(p[3])
      : "cc");
  reduce_once_store<F>(r, X, T0, T1, T2);
}

#undef CUZK_X86_SQR4_RED
#undef CUZK_X86_SQR4_MULADD

// ---- 6 limbs ----------------------------------------------------------------
#define CUZK_X86_SQR6_MULADD(src, tj, tj1) \
  "mulxq " src ", %[lo], %[hi]\n\t"         \
  "adoxq %[lo], %[" #tj "]\n\t"             \
  "adcxq %[hi], %[" #tj1 "]\n\t"
// t += (the product row in rdx) ends with the OF carry into the fresh top word.
#define CUZK_X86_SQR6_OF_END(tn) \
  "movl $0, %k[lo]\n\t"           \
  "adoxq %[lo], %[" #tn "]\n\t"
#define CUZK_X86_SQR6_STORE(x, off) "movq %[" #x "], " #off "(%[buf])\n\t"
// Word j of 2*T + diagonal, with j >= 6: through buf and the scratch x.
#define CUZK_X86_SQR6_HIGH(off, diag)   \
  "movq " #off "(%[buf]), %[x]\n\t"     \
  "adcxq %[x], %[x]\n\t"                \
  "adoxq %[" #diag "], %[x]\n\t"        \
  "movq %[x], " #off "(%[buf])\n\t"
#define CUZK_X86_SQR6_RED(t0, t1, t2, t3, t4, t5, t6) \
  "movabsq %[minv], %%rdx\n\t"                         \
  "imulq %[" #t0 "], %%rdx\n\t"                        \
  "xorl %k[lo], %k[lo]\n\t"                            \
  CUZK_X86_SQR6_MULADD("%[p0]", t0, t1)                \
  CUZK_X86_SQR6_MULADD("%[p1]", t1, t2)                \
  CUZK_X86_SQR6_MULADD("%[p2]", t2, t3)                \
  CUZK_X86_SQR6_MULADD("%[p3]", t3, t4)                \
  CUZK_X86_SQR6_MULADD("%[p4]", t4, t5)                \
  CUZK_X86_SQR6_MULADD("%[p5]", t5, t6)                \
  "adoxq %[" #t0 "], %[" #t6 "]\n\t"

// r = a^2/2^384 mod p for a < p < 2^383; r may alias a.
template <class F>
inline void mont_sqr_6(limbs_t<6>& r, const limbs_t<6>& a) {
  static_assert(F::modulus[5] >> 63 == 0, "2p must fit 6 limbs");
  constexpr const limbs_t<6>& p = modulus_v<F>;
  uint64_t buf[12];  // words 1..11 of the square; 0..5 only until loaded back
  uint64_t s0, s1, s2, s3, s4, s5, x, lo, hi, rdx;
  asm(  // 1. cross products, by rows of a[i]; each word is stored once final.
        // Row 0, a0*a1..a0*a5 at words 1..5 (top word 6), on one carry chain:
      "movq 0(%[a]), %%rdx\n\t"
      "mulxq 8(%[a]), %[s1], %[s2]\n\t"
      "mulxq 16(%[a]), %[lo], %[s3]\n\t"
      "addq %[lo], %[s2]\n\t"
      "mulxq 24(%[a]), %[lo], %[s4]\n\t"
      "adcq %[lo], %[s3]\n\t"
      "mulxq 32(%[a]), %[lo], %[s5]\n\t"
      "adcq %[lo], %[s4]\n\t"
      "mulxq 40(%[a]), %[lo], %[x]\n\t"
      "adcq %[lo], %[s5]\n\t"
      "adcq $0, %[x]\n\t"
      CUZK_X86_SQR6_STORE(s1, 8)
      CUZK_X86_SQR6_STORE(s2, 16)
      // row 1, a1*a2..a1*a5 at words 3..6, top word 7 in s0
      "xorl %k[s0], %k[s0]\n\t"
      "movq 8(%[a]), %%rdx\n\t"
      CUZK_X86_SQR6_MULADD("16(%[a])", s3, s4)
      CUZK_X86_SQR6_MULADD("24(%[a])", s4, s5)
      CUZK_X86_SQR6_MULADD("32(%[a])", s5, x)
      CUZK_X86_SQR6_MULADD("40(%[a])", x, s0)
      CUZK_X86_SQR6_OF_END(s0)
      CUZK_X86_SQR6_STORE(s3, 24)
      CUZK_X86_SQR6_STORE(s4, 32)
      // row 2, a2*a3..a2*a5 at words 5..7, top word 8 in s1
      "xorl %k[s1], %k[s1]\n\t"
      "movq 16(%[a]), %%rdx\n\t"
      CUZK_X86_SQR6_MULADD("24(%[a])", s5, x)
      CUZK_X86_SQR6_MULADD("32(%[a])", x, s0)
      CUZK_X86_SQR6_MULADD("40(%[a])", s0, s1)
      CUZK_X86_SQR6_OF_END(s1)
      CUZK_X86_SQR6_STORE(s5, 40)
      CUZK_X86_SQR6_STORE(x, 48)
      // row 3, a3*a4, a3*a5 at words 7..8, top word 9 in s2
      "xorl %k[s2], %k[s2]\n\t"
      "movq 24(%[a]), %%rdx\n\t"
      CUZK_X86_SQR6_MULADD("32(%[a])", s0, s1)
      CUZK_X86_SQR6_MULADD("40(%[a])", s1, s2)
      CUZK_X86_SQR6_OF_END(s2)
      CUZK_X86_SQR6_STORE(s0, 56)
      CUZK_X86_SQR6_STORE(s1, 64)
      // row 4, a4*a5 at word 9, top word 10
      "movq 32(%[a]), %%rdx\n\t"
      "mulxq 40(%[a]), %[lo], %[s3]\n\t"
      "addq %[lo], %[s2]\n\t"
      "adcq $0, %[s3]\n\t"
      CUZK_X86_SQR6_STORE(s2, 72)
      CUZK_X86_SQR6_STORE(s3, 80)
      // 2. T = 2*T + diagonal: CF doubles, OF adds a[i]^2. The low half stays in
      // s0..s5 for the reduction, the high half goes back to buf[6..11].
      "xorl %k[x], %k[x]\n\t"
      "movq 0(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[s0], %[hi]\n\t"
      "movq 8(%[buf]), %[s1]\n\t"
      "adcxq %[s1], %[s1]\n\t"
      "adoxq %[hi], %[s1]\n\t"
      "movq 8(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "movq 16(%[buf]), %[s2]\n\t"
      "adcxq %[s2], %[s2]\n\t"
      "adoxq %[lo], %[s2]\n\t"
      "movq 24(%[buf]), %[s3]\n\t"
      "adcxq %[s3], %[s3]\n\t"
      "adoxq %[hi], %[s3]\n\t"
      "movq 16(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "movq 32(%[buf]), %[s4]\n\t"
      "adcxq %[s4], %[s4]\n\t"
      "adoxq %[lo], %[s4]\n\t"
      "movq 40(%[buf]), %[s5]\n\t"
      "adcxq %[s5], %[s5]\n\t"
      "adoxq %[hi], %[s5]\n\t"
      "movq 24(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      CUZK_X86_SQR6_HIGH(48, lo)
      CUZK_X86_SQR6_HIGH(56, hi)
      "movq 32(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      CUZK_X86_SQR6_HIGH(64, lo)
      CUZK_X86_SQR6_HIGH(72, hi)
      "movq 40(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      CUZK_X86_SQR6_HIGH(80, lo)
      "movl $0, %k[x]\n\t"  // word 11 has no cross product
      "adcxq %[x], %[x]\n\t"
      "adoxq %[hi], %[x]\n\t"
      "movq %[x], 88(%[buf])\n\t"
      // 3. reduce s0..s5; x is the fresh top word of the first row
      "xorl %k[x], %k[x]\n\t"
      CUZK_X86_SQR6_RED(s0, s1, s2, s3, s4, s5, x)
      CUZK_X86_SQR6_RED(s1, s2, s3, s4, s5, x, s0)
      CUZK_X86_SQR6_RED(s2, s3, s4, s5, x, s0, s1)
      CUZK_X86_SQR6_RED(s3, s4, s5, x, s0, s1, s2)
      CUZK_X86_SQR6_RED(s4, s5, x, s0, s1, s2, s3)
      CUZK_X86_SQR6_RED(s5, x, s0, s1, s2, s3, s4)
      // 4. L (x s0 s1 s2 s3 s4) + high half
      "addq 48(%[buf]), %[x]\n\t"
      "adcq 56(%[buf]), %[s0]\n\t"
      "adcq 64(%[buf]), %[s1]\n\t"
      "adcq 72(%[buf]), %[s2]\n\t"
      "adcq 80(%[buf]), %[s3]\n\t"
      "adcq 88(%[buf]), %[s4]\n\t"
      : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4),
        [s5] "=&r"(s5), [x] "=&r"(x), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(rdx), "=m"(buf)
      : [a] "r"(a.data()), [buf] "r"(buf), "m"(a), [minv] "i"(F::m_inv), [p0] "m"(p[0]),
        [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3]), [p4] "m"(p[4]), [p5] "m"(p[5])
      : "cc");
  reduce_once_store<F>(r, x, s0, s1, s2, s3, s4);
}

#undef CUZK_X86_SQR6_RED
#undef CUZK_X86_SQR6_HIGH
#undef CUZK_X86_SQR6_STORE
#undef CUZK_X86_SQR6_OF_END
#undef CUZK_X86_SQR6_MULADD

template <class F>
inline void mont_sqr(limbs_t<F::n_limbs>& r, const limbs_t<F::n_limbs>& a) {
  if constexpr (F::n_limbs == 4) mont_sqr_4<F>(r, a);
  else mont_sqr_6<F>(r, a);
}

#endif  // CUZK_FF_X86_ADX

}  // namespace cuzk::ff::x86
