#pragma once
// Montgomery multiplication for 4- and 6-limb moduli on x86-64 with BMI2 (mulx)
// and ADX (adcx/adox), fully unrolled in one asm block per width.
//
// Algorithm: CIOS with two independent carry chains, after Gueron et al., "New
// Instructions Supporting Large Integer Arithmetic on Intel Architecture
// Processors" (Intel white paper, 2012). Row i adds a*b[i] to the accumulator
// t[0..N] (low halves of the products on the OF chain, high halves on the CF
// chain), then adds m*p with m = t[0]*(-p^-1) mod 2^64, which clears t[0]; the
// next row names the registers one word down instead of moving them.
//
// No carry word beyond t[N]: with a, b < p < 2^(64N-1) (top bit of p clear, as
// for both BLS12-381 moduli) every row keeps t < 2p, so t + a*b[i] + m*p <
// 2p*2^64 fits N+1 words and both chains end every pass with CF = OF = 0. The
// next pass therefore starts without clearing the flags, and the result needs
// one conditional subtraction of p (x86_adx.hpp).
//
// Measured on the Zen 5 build machine (bench/ff/bench_ff.cpp), core cycles for
// a dependent chain / eight independent chains: Fr 61 / 44, Fp 115 / 105,
// against 72 / 73 and 195 / 240 for the generic unsigned __int128 loop. A chain
// waits on m in every row (imul 3 + mulx 4 + three 1-cycle adds, ~10 cycles).
// Throughput is bound by the instruction mix: on this core a mulx with its
// adcx and adox issues every 1.33 cycles (mulx shares the ALU ports), so the
// 2N^2 such steps alone take 43 cycles for N = 4 and 96 for N = 6.
#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"
#include "ff/x86_adx.hpp"

namespace cuzk::ff::x86 {

#if CUZK_FF_X86_ADX

// The asm text is composed from the steps below; register names are operand
// names, so a row is renamed by passing them in rotated order.
// One step: t[j] += lo(rdx * src) on the OF chain, t[j+1] += hi on the CF chain.
#define CUZK_X86_MULADD(src, tj, tj1)        \
  "mulxq " src ", %[lo], %[hi]\n\t"           \
  "adoxq %[lo], %[" #tj "]\n\t"               \
  "adcxq %[hi], %[" #tj1 "]\n\t"
// Start of a row: rdx = b[i]. The top word tN arrives as 0 (it is the t0 that
// the previous reduction cleared).
#define CUZK_X86_LOAD_B(off) "movq " #off "(%[b]), %%rdx\n\t"
// End of the a*b[i] pass: the OF carry lands in tN. mov leaves the flags alone.
#define CUZK_X86_MAC_END(tn)  \
  "movl $0, %k[lo]\n\t"        \
  "adoxq %[lo], %[" #tn "]\n\t"
// Start of the reduction pass: rdx = m. imul trashes CF and OF; the xor clears
// them off the critical path.
#define CUZK_X86_RED_START(t0)          \
  "movabsq %[minv], %%rdx\n\t"           \
  "imulq %[" #t0 "], %%rdx\n\t"          \
  "xorl %k[lo], %k[lo]\n\t"
// End of the reduction pass: t0 is now 0, so it serves as the zero source.
#define CUZK_X86_RED_END(t0, tn) "adoxq %[" #t0 "], %[" #tn "]\n\t"

// ---- 4 limbs ----------------------------------------------------------------
#define CUZK_X86_ROW4_MAC(t0, t1, t2, t3, t4)        \
  CUZK_X86_MULADD("0(%[a])", t0, t1)                  \
  CUZK_X86_MULADD("8(%[a])", t1, t2)                  \
  CUZK_X86_MULADD("16(%[a])", t2, t3)                 \
  CUZK_X86_MULADD("24(%[a])", t3, t4)                 \
  CUZK_X86_MAC_END(t4)
#define CUZK_X86_ROW4_RED(t0, t1, t2, t3, t4)        \
  CUZK_X86_RED_START(t0)                              \
  CUZK_X86_MULADD("%[p0]", t0, t1)                    \
  CUZK_X86_MULADD("%[p1]", t1, t2)                    \
  CUZK_X86_MULADD("%[p2]", t2, t3)                    \
  CUZK_X86_MULADD("%[p3]", t3, t4)                    \
  CUZK_X86_RED_END(t0, t4)
#define CUZK_X86_ROW4(off, t0, t1, t2, t3, t4)       \
  CUZK_X86_LOAD_B(off)                                \
  CUZK_X86_ROW4_MAC(t0, t1, t2, t3, t4)              \
  CUZK_X86_ROW4_RED(t0, t1, t2, t3, t4)

// r = a*b/2^256 mod p for a, b < p < 2^255; r may alias a or b.
template <class F>
inline void mont_mul_4(limbs_t<4>& r, const limbs_t<4>& a, const limbs_t<4>& b) {
  static_assert(F::modulus[3] >> 63 == 0, "the no-carry rows need the top bit of p clear");
  constexpr const limbs_t<4>& p = modulus_v<F>;
  uint64_t t0, t1, t2, t3, t4, lo, hi, rdx;
  asm(  // row 0: t = a*b[0] on one carry chain, then its reduction
      CUZK_X86_LOAD_B(0)
      "mulxq 0(%[a]), %[t0], %[t1]\n\t"
      "mulxq 8(%[a]), %[lo], %[t2]\n\t"
      "addq %[lo], %[t1]\n\t"
      "mulxq 16(%[a]), %[lo], %[t3]\n\t"
      "adcq %[lo], %[t2]\n\t"
      "mulxq 24(%[a]), %[lo], %[t4]\n\t"
      "adcq %[lo], %[t3]\n\t"
      "adcq $0, %[t4]\n\t"
      CUZK_X86_ROW4_RED(t0, t1, t2, t3, t4)
      CUZK_X86_ROW4(8, t1, t2, t3, t4, t0)
      CUZK_X86_ROW4(16, t2, t3, t4, t0, t1)
      CUZK_X86_ROW4(24, t3, t4, t0, t1, t2)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(rdx)
      : [a] "r"(a.data()), [b] "r"(b.data()), "m"(a), "m"(b), [minv] "i"(F::m_inv),
        [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3])
      : "cc");
  reduce_once_store<F>(r, t4, t0, t1, t2);  // t3 = 0 after the last row
}

// ---- 6 limbs ----------------------------------------------------------------
#define CUZK_X86_ROW6_MAC(t0, t1, t2, t3, t4, t5, t6) \
  CUZK_X86_MULADD("0(%[a])", t0, t1)                   \
  CUZK_X86_MULADD("8(%[a])", t1, t2)                   \
  CUZK_X86_MULADD("16(%[a])", t2, t3)                  \
  CUZK_X86_MULADD("24(%[a])", t3, t4)                  \
  CUZK_X86_MULADD("32(%[a])", t4, t5)                  \
  CUZK_X86_MULADD("40(%[a])", t5, t6)                  \
  CUZK_X86_MAC_END(t6)
#define CUZK_X86_ROW6_RED(t0, t1, t2, t3, t4, t5, t6) \
  CUZK_X86_RED_START(t0)                               \
  CUZK_X86_MULADD("%[p0]", t0, t1)                     \
  CUZK_X86_MULADD("%[p1]", t1, t2)                     \
  CUZK_X86_MULADD("%[p2]", t2, t3)                     \
  CUZK_X86_MULADD("%[p3]", t3, t4)                     \
  CUZK_X86_MULADD("%[p4]", t4, t5)                     \
  CUZK_X86_MULADD("%[p5]", t5, t6)                     \
  CUZK_X86_RED_END(t0, t6)
#define CUZK_X86_ROW6(off, t0, t1, t2, t3, t4, t5, t6) \
  CUZK_X86_LOAD_B(off)                                  \
  CUZK_X86_ROW6_MAC(t0, t1, t2, t3, t4, t5, t6)        \
  CUZK_X86_ROW6_RED(t0, t1, t2, t3, t4, t5, t6)

// r = a*b/2^384 mod p for a, b < p < 2^383; r may alias a or b.
template <class F>
inline void mont_mul_6(limbs_t<6>& r, const limbs_t<6>& a, const limbs_t<6>& b) {
  static_assert(F::modulus[5] >> 63 == 0, "the no-carry rows need the top bit of p clear");
  constexpr const limbs_t<6>& p = modulus_v<F>;
  uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, rdx;
  asm(  // row 0: t = a*b[0] on one carry chain, then its reduction
      CUZK_X86_LOAD_B(0)
      "mulxq 0(%[a]), %[t0], %[t1]\n\t"
      "mulxq 8(%[a]), %[lo], %[t2]\n\t"
      "addq %[lo], %[t1]\n\t"
      "mulxq 16(%[a]), %[lo], %[t3]\n\t"
      "adcq %[lo], %[t2]\n\t"
      "mulxq 24(%[a]), %[lo], %[t4]\n\t"
      "adcq %[lo], %[t3]\n\t"
      "mulxq 32(%[a]), %[lo], %[t5]\n\t"
      "adcq %[lo], %[t4]\n\t"
      "mulxq 40(%[a]), %[lo], %[t6]\n\t"
      "adcq %[lo], %[t5]\n\t"
      "adcq $0, %[t6]\n\t"
      CUZK_X86_ROW6_RED(t0, t1, t2, t3, t4, t5, t6)
      CUZK_X86_ROW6(8, t1, t2, t3, t4, t5, t6, t0)
      CUZK_X86_ROW6(16, t2, t3, t4, t5, t6, t0, t1)
      CUZK_X86_ROW6(24, t3, t4, t5, t6, t0, t1, t2)
      CUZK_X86_ROW6(32, t4, t5, t6, t0, t1, t2, t3)
      CUZK_X86_ROW6(40, t5, t6, t0, t1, t2, t3, t4)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(rdx)
      : [a] "r"(a.data()), [b] "r"(b.data()), "m"(a), "m"(b), [minv] "i"(F::m_inv),
        [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3]), [p4] "m"(p[4]),
        [p5] "m"(p[5])
      : "cc");
  reduce_once_store<F>(r, t6, t0, t1, t2, t3, t4);  // t5 = 0 after the last row
}

#undef CUZK_X86_ROW6
#undef CUZK_X86_ROW6_RED
#undef CUZK_X86_ROW6_MAC
#undef CUZK_X86_ROW4
#undef CUZK_X86_ROW4_RED
#undef CUZK_X86_ROW4_MAC
#undef CUZK_X86_RED_END
#undef CUZK_X86_RED_START
#undef CUZK_X86_MAC_END
#undef CUZK_X86_LOAD_B
#undef CUZK_X86_MULADD

template <class F>
inline void mont_mul(limbs_t<F::n_limbs>& r, const limbs_t<F::n_limbs>& a,
                     const limbs_t<F::n_limbs>& b) {
  if constexpr (F::n_limbs == 4) mont_mul_4<F>(r, a, b);
  else mont_mul_6<F>(r, a, b);
}

#endif  // CUZK_FF_X86_ADX

}  // namespace cuzk::ff::x86
