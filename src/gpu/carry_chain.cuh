#pragma once
// 32-bit integer carry chains: each method is one PTX instruction on the device
// (add.cc, addc, sub.cc, subc, mad.lo.cc, madc.hi ...), and a plain C++
// emulation of the same instruction on the host. The device field code is
// written once against this type, so its algorithm (limb order, carry
// placement) is checked against the host field on machines without a GPU; only
// the one-instruction translations are left to the device test.
//
// On the device CC.CF lives in hardware between consecutive asm statements
// (volatile keeps them in order; the compiler inserts no carry-using PTX of its
// own between them), and the member cf is dead.
#include <cstdint>

// Full unrolling keeps limb arrays in registers (a run-time index would move
// them to local memory). nvcc's host pass gets no pragma: there the host
// compiler would warn about a foreign one.
#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__ __forceinline__
#if defined(__CUDA_ARCH__)
#define CUZK_UNROLL _Pragma("unroll")
#else
#define CUZK_UNROLL
#endif
#else
#define CUZK_HD inline
#define CUZK_UNROLL _Pragma("GCC unroll 16")
#endif

namespace cuzk::gpu {

struct carry_chain {
  uint32_t cf = 0;  // host emulation of CC.CF: carry for additions, borrow for subtractions

#if defined(__CUDA_ARCH__)
#define CUZK_PTX2(op, d, a, b) asm volatile(op " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define CUZK_PTX3(op, d, a, b, c) asm volatile(op " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
  __device__ __forceinline__ uint32_t add_cc(uint32_t a, uint32_t b) { uint32_t d; CUZK_PTX2("add.cc.u32", d, a, b); return d; }
  __device__ __forceinline__ uint32_t addc_cc(uint32_t a, uint32_t b) { uint32_t d; CUZK_PTX2("addc.cc.u32", d, a, b); return d; }
  __device__ __forceinline__ uint32_t addc(uint32_t a, uint32_t b) { uint32_t d; CUZK_PTX2("addc.u32", d, a, b); return d; }
  __device__ __forceinline__ uint32_t sub_cc(uint32_t a, uint32_t b) { uint32_t d; CUZK_PTX2("sub.cc.u32", d, a, b); return d; }
  __device__ __forceinline__ uint32_t subc_cc(uint32_t a, uint32_t b) { uint32_t d; CUZK_PTX2("subc.cc.u32", d, a, b); return d; }
  __device__ __forceinline__ uint32_t subc(uint32_t a, uint32_t b) { uint32_t d; CUZK_PTX2("subc.u32", d, a, b); return d; }
  __device__ __forceinline__ uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; CUZK_PTX3("mad.lo.cc.u32", d, a, b, c); return d; }
  __device__ __forceinline__ uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; CUZK_PTX3("madc.lo.cc.u32", d, a, b, c); return d; }
  __device__ __forceinline__ uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; CUZK_PTX3("mad.hi.cc.u32", d, a, b, c); return d; }
  __device__ __forceinline__ uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; CUZK_PTX3("madc.hi.cc.u32", d, a, b, c); return d; }
#undef CUZK_PTX2
#undef CUZK_PTX3
#else
  inline uint32_t add_cc(uint32_t a, uint32_t b) { return take(uint64_t(a) + b); }
  inline uint32_t addc_cc(uint32_t a, uint32_t b) { return take(uint64_t(a) + b + cf); }
  inline uint32_t addc(uint32_t a, uint32_t b) { return uint32_t(a + b + cf); }
  inline uint32_t sub_cc(uint32_t a, uint32_t b) { return borrow(uint64_t(a) - b); }
  inline uint32_t subc_cc(uint32_t a, uint32_t b) { return borrow(uint64_t(a) - b - cf); }
  inline uint32_t subc(uint32_t a, uint32_t b) { return uint32_t(a - b - cf); }
  inline uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return take(uint64_t(uint32_t(a * b)) + c); }
  inline uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return take(uint64_t(uint32_t(a * b)) + c + cf); }
  inline uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return take(((uint64_t(a) * b) >> 32) + c); }
  inline uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return take(((uint64_t(a) * b) >> 32) + c + cf); }

 private:
  uint32_t take(uint64_t s) {
    cf = uint32_t(s >> 32);
    return uint32_t(s);
  }
  uint32_t borrow(uint64_t s) {
    cf = uint32_t(s >> 63);  // a - b - cf went below zero
    return uint32_t(s);
  }
#endif
};

}  // namespace cuzk::gpu
