#pragma once
// Branch-free modular addition and subtraction for 4- and 6-limb moduli on
// x86-64: carry chains and selects, no branch on the data.
//
// Why asm: GCC 12 turns the unsigned __int128 carries of bigint.hpp into
// add/adc/xor soup, and _addcarry_u64 chains into setc/add-byte pairs with a
// branch for the final select; on random operands that branch mispredicts about
// half the time. Dependent chains on Zen 5: Fp add 16-18 -> 9 cycles, Fr add
// 10-12 -> 6, subtraction likewise.
//
// Both moduli have the top bit clear, so a + b < 2p never carries out of N limbs.
#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"
#include "ff/x86_adx.hpp"

namespace cuzk::ff::x86 {

#if CUZK_FF_X86_ADX

// r = a + b mod p; r may alias a or b.
template <class F>
inline void mod_add(limbs_t<F::n_limbs>& r, const limbs_t<F::n_limbs>& a, const limbs_t<F::n_limbs>& b) {
  constexpr size_t n = F::n_limbs;
  static_assert(F::modulus[n - 1] >> 63 == 0, "a + b must fit n limbs");
  if constexpr (n == 4) {
    uint64_t s0 = a[0], s1 = a[1], s2 = a[2], s3 = a[3];
    asm("addq 0(%[b]), %[s0]\n\t"
        "adcq 8(%[b]), %[s1]\n\t"
        "adcq 16(%[b]), %[s2]\n\t"
        "adcq 24(%[b]), %[s3]\n\t"
        : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3)
        : [b] "r"(b.data()), "m"(b)
        : "cc");
    reduce_once_store<F>(r, s0, s1, s2, s3);
  } else {
    static_assert(n == 6);
    uint64_t s0 = a[0], s1 = a[1], s2 = a[2], s3 = a[3], s4 = a[4], s5 = a[5];
    asm("addq 0(%[b]), %[s0]\n\t"
        "adcq 8(%[b]), %[s1]\n\t"
        "adcq 16(%[b]), %[s2]\n\t"
        "adcq 24(%[b]), %[s3]\n\t"
        "adcq 32(%[b]), %[s4]\n\t"
        "adcq 40(%[b]), %[s5]\n\t"
        : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [s4] "+r"(s4), [s5] "+r"(s5)
        : [b] "r"(b.data()), "m"(b)
        : "cc");
    reduce_once_store<F>(r, s0, s1, s2, s3, s4, s5);
  }
}

// r = a - b mod p; r may alias a or b. s = a - b leaves the borrow in CF; each
// word then adds (borrow ? p[j] : 0), picked by cmov and added on the OF chain
// (adox), so the CF that every cmov reads survives the additions. sbb q, q
// keeps CF and clears OF for that chain.
#define CUZK_X86_ADD_P_IF_CF(pj, sj) \
  "movl $0, %k[q]\n\t"                \
  "cmovcq %[" #pj "], %[q]\n\t"       \
  "adoxq %[q], %[" #sj "]\n\t"
#define CUZK_X86_STORE(sj, off) "movq %[" #sj "], " #off "(%[r])\n\t"

template <class F>
inline void mod_sub(limbs_t<F::n_limbs>& r, const limbs_t<F::n_limbs>& a, const limbs_t<F::n_limbs>& b) {
  constexpr size_t n = F::n_limbs;
  constexpr const limbs_t<n>& p = modulus_v<F>;
  uint64_t q;
  if constexpr (n == 4) {
    uint64_t s0 = a[0], s1 = a[1], s2 = a[2], s3 = a[3];
    asm("subq 0(%[b]), %[s0]\n\t"
        "sbbq 8(%[b]), %[s1]\n\t"
        "sbbq 16(%[b]), %[s2]\n\t"
        "sbbq 24(%[b]), %[s3]\n\t"
        "sbbq %[q], %[q]\n\t"
        CUZK_X86_ADD_P_IF_CF(p0, s0)
        CUZK_X86_ADD_P_IF_CF(p1, s1)
        CUZK_X86_ADD_P_IF_CF(p2, s2)
        CUZK_X86_ADD_P_IF_CF(p3, s3)
        CUZK_X86_STORE(s0, 0)
        CUZK_X86_STORE(s1, 8)
        CUZK_X86_STORE(s2, 16)
        CUZK_X86_STORE(s3, 24)
        : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [q] "=&r"(q), "=m"(r)
        : [r] "r"(r.data()), [b] "r"(b.data()), "m"(b), [p0] "m"(p[0]), [p1] "m"(p[1]),
          [p2] "m"(p[2]), [p3] "m"(p[3])
        : "cc");
  } else {
    static_assert(n == 6);
    uint64_t s0 = a[0], s1 = a[1], s2 = a[2], s3 = a[3], s4 = a[4], s5 = a[5];
    asm("subq 0(%[b]), %[s0]\n\t"
        "sbbq 8(%[b]), %[s1]\n\t"
        "sbbq 16(%[b]), %[s2]\n\t"
        "sbbq 24(%[b]), %[s3]\n\t"
        "sbbq 32(%[b]), %[s4]\n\t"
        "sbbq 40(%[b]), %[s5]\n\t"
        "sbbq %[q], %[q]\n\t"
        CUZK_X86_ADD_P_IF_CF(p0, s0)
        CUZK_X86_ADD_P_IF_CF(p1, s1)
        CUZK_X86_ADD_P_IF_CF(p2, s2)
        CUZK_X86_ADD_P_IF_CF(p3, s3)
        CUZK_X86_ADD_P_IF_CF(p4, s4)
        CUZK_X86_ADD_P_IF_CF(p5, s5)
        CUZK_X86_STORE(s0, 0)
        CUZK_X86_STORE(s1, 8)
        CUZK_X86_STORE(s2, 16)
        CUZK_X86_STORE(s3, 24)
        CUZK_X86_STORE(s4, 32)
        CUZK_X86_STORE(s5, 40)
        : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [s4] "+&r"(s4),
          [s5] "+&r"(s5), [q] "=&r"(q), "=m"(r)
        : [r] "r"(r.data()), [b] "r"(b.data()), "m"(b), [p0] "m"(p[0]), [p1] "m"(p[1]),
          [p2] "m"(p[2]), [p3] "m"(p[3]), [p4] "m"(p[4]), [p5] "m"(p[5])
        : "cc");
  }
}

#undef CUZK_X86_STORE
#undef CUZK_X86_ADD_P_IF_CF

#endif  // CUZK_FF_X86_ADX

}  // namespace cuzk::ff::x86
