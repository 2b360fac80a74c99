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

// AddressSanitizer takes registers the kernels need (clang: "inline assembly
// requires more registers than available") and cannot see inside asm anyway,
// so sanitizer builds (the fuzzers) use the generic path.
#if defined(__SANITIZE_ADDRESS__)
#define CUZK_FF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUZK_FF_ASAN 1
#endif
#endif

#if defined(__x86_64__) && defined(__BMI2__) && defined(__ADX__) && defined(__OPTIMIZE__) && \
    !defined(__CUDA_ARCH__) && !defined(CUZK_FF_ASAN)
#define CUZK_FF_X86_ADX 1
#else
#define CUZK_FF_X86_ADX 0
#endif

#if CUZK_FF_X86_ADX
#include <x86intrin.h>
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

// r = t < p ? t : t - p for t < 2p: d = t - p on one borrow chain, then a mask
// keeps t where that borrowed. Written with the subborrow intrinsic rather than
// asm: the asm version needed 7+ registers at once and GCC 12 reported
// "impossible constraints" where inlined into callers that held many.
template <class F, size_t N>
[[gnu::always_inline]] inline void reduce_once_store_n(limbs_t<N>& r, const uint64_t (&t)[N]) {
  constexpr const limbs_t<N>& p = F::modulus;
  unsigned long long d[N];
  unsigned char borrow = 0;
  for (size_t i = 0; i < N; ++i) borrow = _subborrow_u64(borrow, t[i], p[i], &d[i]);
  const uint64_t keep_t = uint64_t(0) - borrow;
  for (size_t i = 0; i < N; ++i) r[i] = (t[i] & keep_t) | (uint64_t(d[i]) & ~keep_t);
}

template <class F>
inline void reduce_once_store(limbs_t<4>& r, uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3) {
  const uint64_t t[4] = {t0, t1, t2, t3};
  reduce_once_store_n<F, 4>(r, t);
}

template <class F>
inline void reduce_once_store(limbs_t<6>& r, uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3,
                              uint64_t t4, uint64_t t5) {
  const uint64_t t[6] = {t0, t1, t2, t3, t4, t5};
  reduce_once_store_n<F, 6>(r, t);
}

#endif  // CUZK_FF_X86_ADX

}  // namespace cuzk::ff::x86
