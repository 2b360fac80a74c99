#pragma once
// Fp2 = Fp[u]/(u^2 + 1) on the device, bytes identical to ff::fp2_t (c0, c1).
// Karatsuba product (3 Fp multiplications) and the complex squaring
// (2 multiplications), the same formulas as the host type, so results agree
// bit for bit. Host-compilable like mont_d (CI checks it against ff::fp2_t).
#include "ff/fp2.hpp"
#include "gpu/fp_d.cuh"

namespace cuzk::gpu {

struct alignas(16) fp2_d {
  fp_d c0, c1;

  CUZK_HD static fp2_d zero() { return {fp_d::zero(), fp_d::zero()}; }
  CUZK_HD static fp2_d one() { return {fp_d::one(), fp_d::zero()}; }
  CUZK_HD bool operator==(const fp2_d& b) const { return c0 == b.c0 && c1 == b.c1; }
  CUZK_HD bool operator!=(const fp2_d& b) const { return !(*this == b); }

  CUZK_HD friend fp2_d operator+(const fp2_d& a, const fp2_d& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  CUZK_HD friend fp2_d operator-(const fp2_d& a, const fp2_d& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  CUZK_HD fp2_d operator-() const { return {-c0, -c1}; }
  CUZK_HD friend fp2_d operator*(const fp2_d& a, const fp2_d& b) { return mul(a, b); }
  CUZK_HD fp2_d sqr() const { return sqr_of(*this); }
  CUZK_HD fp2_d dbl() const { return {c0.dbl(), c1.dbl()}; }
  CUZK_HD fp2_d& operator*=(const fp2_d& b) { return *this = *this * b; }

  // Out of line on the device: inlined, the ~40 Fp products of one G2
  // addition made nvcc's optimizer take over ten minutes per kernel file on
  // a 16-core machine (G1: two); as calls each kernel holds one copy.
  // Operands by value: passed in registers, where references to a caller's
  // locals put them in local memory (1.1 KB of stack in the G2 bucket kernel).
#if defined(__CUDACC__)
  __host__ __device__ __noinline__
#else
  inline
#endif
  static fp2_d mul(fp2_d a, fp2_d b) {
    fp_d aa = a.c0 * b.c0, bb = a.c1 * b.c1;
    fp_d s = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {aa - bb, s - aa - bb};
  }
#if defined(__CUDACC__)
  __host__ __device__ __noinline__
#else
  inline
#endif
  static fp2_d sqr_of(fp2_d a) {
    return {(a.c0 + a.c1) * (a.c0 - a.c1), (a.c0 * a.c1).dbl()};
  }
  CUZK_HD fp2_d& operator+=(const fp2_d& b) { return *this = *this + b; }
  CUZK_HD fp2_d& operator-=(const fp2_d& b) { return *this = *this - b; }

  // 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2); 0 for 0.
  CUZK_HD fp2_d inverse() const {
    const fp_d t = (c0.sqr() + c1.sqr()).inverse();
    return {c0 * t, -(c1 * t)};
  }
};
static_assert(sizeof(fp2_d) == sizeof(ff::fp2_t));

}  // namespace cuzk::gpu
