#pragma once
// Loads and stores of device field elements: 16-byte vector accesses on the
// device (two per Fr, three per Fp), __ldg for tables no kernel writes, and
// plain copies when the same code runs on the host (kernel emulation in tests).
#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

#include "gpu/mont_d.cuh"

namespace cuzk::gpu {

template <class F>
CUZK_HD F load_f(const F* p) {
#if defined(__CUDA_ARCH__)
  static_assert(sizeof(F) % 16 == 0);
  const uint4* q = reinterpret_cast<const uint4*>(p);
  F r;
#pragma unroll
  for (int i = 0; i < int(sizeof(F) / 16); ++i) {
    uint4 v = q[i];
    r.l[4 * i] = v.x, r.l[4 * i + 1] = v.y, r.l[4 * i + 2] = v.z, r.l[4 * i + 3] = v.w;
  }
  return r;
#else
  return *p;
#endif
}

template <class F>
CUZK_HD F ldg_f(const F* p) {
#if defined(__CUDA_ARCH__)
  const uint4* q = reinterpret_cast<const uint4*>(p);
  F r;
#pragma unroll
  for (int i = 0; i < int(sizeof(F) / 16); ++i) {
    uint4 v = __ldg(q + i);
    r.l[4 * i] = v.x, r.l[4 * i + 1] = v.y, r.l[4 * i + 2] = v.z, r.l[4 * i + 3] = v.w;
  }
  return r;
#else
  return *p;
#endif
}

template <class F>
CUZK_HD void store_f(F* p, const F& x) {
#if defined(__CUDA_ARCH__)
  uint4* q = reinterpret_cast<uint4*>(p);
#pragma unroll
  for (int i = 0; i < int(sizeof(F) / 16); ++i) {
    q[i] = make_uint4(x.l[4 * i], x.l[4 * i + 1], x.l[4 * i + 2], x.l[4 * i + 3]);
  }
#else
  *p = x;
#endif
}

// The low `bits` bits of x in reverse order (0 when bits is 0).
CUZK_HD uint32_t bit_rev(uint32_t x, uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return bits ? __brev(x) >> (32 - bits) : 0;
#else
  uint32_t r = 0;
  for (uint32_t i = 0; i < bits; ++i) r |= ((x >> i) & 1u) << (bits - 1 - i);
  return r;
#endif
}

}  // namespace cuzk::gpu
