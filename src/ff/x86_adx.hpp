#pragma once
// Shared pieces of the x86-64 field kernels (mont_mul_x86.hpp, mod_add_x86.hpp):
// when they are compiled in, the modulus as asm memory operands, and the final
// conditional subtraction that also stores the result.
//
// The kernels are compiled in when the compiler targets BMI2 (mulx) and ADX
// (adcx/adox) with optimisation on (at -O0 GCC cannot give the asm blocks the
// 12 or 13 registers they ask for). The project builds with -march=native, or
// -mbmi2 -madx. Every translation unit should see the same target flags: an
// inline function compiled both ways is one symbol to the linker, which keeps
// either copy. CUDA host code gets the flags through -Xcompiler.
//
// Results leave the asm through explicit 64-bit stores into the destination:
// when four or six registers are assigned to an array, GCC 12's SLP vectoriser
// packs them with vpinsrq into vector stores, and the next kernel's 64-bit
// loads wait on that store (about 20 extra cycles per Fr multiplication in a
// dependent chain on Zen 5). A 64-bit store read back by a 64-bit load is
// forwarded in under a cycle there.
#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"

#if defined(__x86_64__) && defined(__BMI2__) && defined(__ADX__) && defined(__OPTIMIZE__) && \
    !defined(__CUDA_ARCH__)
#define CUZK_FF_X86_ADX 1
#else
#define CUZK_FF_X86_ADX 0
#endif

namespace cuzk::ff::x86 {

// True when this target has the field kernels for N limbs.
template <size_t N>
inline constexpr bool has_kernels = CUZK_FF_X86_ADX && (N == 4 || N == 6);

#if CUZK_FF_X86_ADX

// The modulus for asm memory operands. Hidden visibility lets even -fPIC code
// address it relative to %rip, so its words take no register.
template <class F>
[[gnu::visibility("hidden")]] inline constexpr limbs_t<F::n_limbs> modulus_v = F::modulus;

// r = t < p ? t : t - p for t < 2p: d = t - p on one borrow chain, then cmov
// keeps t where that borrowed. t may sit in memory ("rm"): mov and cmov accept
// it, and with 6 outputs plus the pointer a register-only t made GCC report
// "impossible constraints" wherever the caller already held many registers.
template <class F>
inline void reduce_once_store(limbs_t<4>& r, uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3) {
  constexpr const limbs_t<4>& p = modulus_v<F>;
  uint64_t d0, d1, d2, d3;
  asm("movq %[t0], %[d0]\n\t"
      "subq %[p0], %[d0]\n\t"
      "movq %[t1], %[d1]\n\t"
      "sbbq %[p1], %[d1]\n\t"
      "movq %[t2], %[d2]\n\t"
      "sbbq %[p2], %[d2]\n\t"
      "movq %[t3], %[d3]\n\t"
      "sbbq %[p3], %[d3]\n\t"
      "cmovcq %[t0], %[d0]\n\t"
      "cmovcq %[t1], %[d1]\n\t"
      "cmovcq %[t2], %[d2]\n\t"
      "cmovcq %[t3], %[d3]\n\t"
      "movq %[d0], 0(%[r])\n\t"
      "movq %[d1], 8(%[r])\n\t"
      "movq %[d2], 16(%[r])\n\t"
      "movq %[d3], 24(%[r])\n\t"
      : [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3), "=m"(r)
      : [r] "r"(r.data()), [t0] "rm"(t0), [t1] "rm"(t1), [t2] "rm"(t2), [t3] "rm"(t3),
        [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3])
      : "cc");
}

template <class F>
inline void reduce_once_store(limbs_t<6>& r, uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3,
                              uint64_t t4, uint64_t t5) {
  constexpr const limbs_t<6>& p = modulus_v<F>;
  uint64_t d0, d1, d2, d3, d4, d5;
  asm("movq %[t0], %[d0]\n\t"
      "subq %[p0], %[d0]\n\t"
      "movq %[t1], %[d1]\n\t"
      "sbbq %[p1], %[d1]\n\t"
      "movq %[t2], %[d2]\n\t"
      "sbbq %[p2], %[d2]\n\t"
      "movq %[t3], %[d3]\n\t"
      "sbbq %[p3], %[d3]\n\t"
      "movq %[t4], %[d4]\n\t"
      "sbbq %[p4], %[d4]\n\t"
      "movq %[t5], %[d5]\n\t"
      "sbbq %[p5], %[d5]\n\t"
      "cmovcq %[t0], %[d0]\n\t"
      "cmovcq %[t1], %[d1]\n\t"
      "cmovcq %[t2], %[d2]\n\t"
      "cmovcq %[t3], %[d3]\n\t"
      "cmovcq %[t4], %[d4]\n\t"
      "cmovcq %[t5], %[d5]\n\t"
      "movq %[d0], 0(%[r])\n\t"
      "movq %[d1], 8(%[r])\n\t"
      "movq %[d2], 16(%[r])\n\t"
      "movq %[d3], 24(%[r])\n\t"
      "movq %[d4], 32(%[r])\n\t"
      "movq %[d5], 40(%[r])\n\t"
      : [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3), [d4] "=&r"(d4),
        [d5] "=&r"(d5), "=m"(r)
      : [r] "r"(r.data()), [t0] "rm"(t0), [t1] "rm"(t1), [t2] "rm"(t2), [t3] "rm"(t3), [t4] "rm"(t4),
        [t5] "rm"(t5), [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3]),
        [p4] "m"(p[4]), [p5] "m"(p[5])
      : "cc");
}

#endif  // CUZK_FF_X86_ADX

}  // namespace cuzk::ff::x86
