#pragma once
// Fp2 = Fp[u]/(u^2 + 1) on the device, bytes identical to ff::fp2_t (c0, c1).
// Karatsuba product (3 Fp multiplications) and the complex squaring
// (2 multiplications), the same formulas as the host type, so results agree
// bit for bit. Host-compilable like mont_d (CI checks it against ff::fp2_t).
//
// fp2_base_d<true> (fp2_lazy_d) forms the product with two Montgomery
// reductions instead of three: the three 768-bit Karatsuba products are
// combined before reducing (mul_lazy). Values stay fully reduced, so both
// forms give the same bytes; which is faster is measured on the GPU
// (BM_gpu_fp2_mul*, BM_gpu_g2_add_mixed*) before the MSM takes it.
#include "ff/fp2.hpp"
#include "gpu/fp_d.cuh"

namespace cuzk::gpu {

template <bool lazy_product>
struct alignas(16) fp2_base_d {
  fp_d c0, c1;

  CUZK_HD static fp2_base_d zero() { return {fp_d::zero(), fp_d::zero()}; }
  CUZK_HD static fp2_base_d one() { return {fp_d::one(), fp_d::zero()}; }
  CUZK_HD bool operator==(const fp2_base_d& b) const { return c0 == b.c0 && c1 == b.c1; }
  CUZK_HD bool operator!=(const fp2_base_d& b) const { return !(*this == b); }

  CUZK_HD friend fp2_base_d operator+(const fp2_base_d& a, const fp2_base_d& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  CUZK_HD friend fp2_base_d operator-(const fp2_base_d& a, const fp2_base_d& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  CUZK_HD fp2_base_d operator-() const { return {-c0, -c1}; }
  CUZK_HD friend fp2_base_d operator*(const fp2_base_d& a, const fp2_base_d& b) {
    if constexpr (lazy_product) {
      return mul_lazy(a, b);
    } else {
      return mul(a, b);
    }
  }
  CUZK_HD fp2_base_d sqr() const { return sqr_of(*this); }
  CUZK_HD fp2_base_d dbl() const { return {c0.dbl(), c1.dbl()}; }
  CUZK_HD fp2_base_d& operator*=(const fp2_base_d& b) { return *this = *this * b; }

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
  static fp2_base_d mul(fp2_base_d a, fp2_base_d b) {
    fp_d aa = a.c0 * b.c0, bb = a.c1 * b.c1;
    fp_d s = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {aa - bb, s - aa - bb};
  }

  // The same product with two reductions: over the integers, with a_i, b_i
  // < p and A = a0·b0, B = a1·b1, S = (a0 + a1)(b0 + b1) (sums not reduced,
  // < 2p, so S < 4p² and the Karatsuba identity holds exactly),
  //   c1 = S - A - B = a0·b1 + a1·b0, in [0, 2p²),
  //   c0 = A + p² - B,               in (0, 2p²),
  // and 2p² < p·R (R = 2^384 > 4p), so reduce_wide's bound holds for both:
  // each comes out fully reduced, the bytes of mul's result. 3 × 144 limb
  // products and 2 reductions of 144 instead of 3 × (144 + 144).
#if defined(__CUDACC__)
  __host__ __device__ __noinline__
#else
  inline
#endif
  static fp2_base_d mul_lazy(fp2_base_d a, fp2_base_d b) {
    constexpr int n = fp_d::n, w = 2 * n;
    uint32_t sa[n], sb[n];
    add_raw<n>(sa, a.c0.l, a.c1.l);
    add_raw<n>(sb, b.c0.l, b.c1.l);
    uint32_t A[w], B[w], S[w];
    fp_d::product<n>(A, a.c0.l, b.c0.l);
    fp_d::product<n>(B, a.c1.l, b.c1.l);
    fp_d::product<n>(S, sa, sb);
    sub_raw<w>(S, S, A);
    sub_raw<w>(S, S, B);
    constexpr wide p2 = p_squared();
    add_raw<w>(A, A, p2.v);
    sub_raw<w>(A, A, B);
    return {fp_d::reduce_wide(A), fp_d::reduce_wide(S)};
  }

#if defined(__CUDACC__)
  __host__ __device__ __noinline__
#else
  inline
#endif
  static fp2_base_d sqr_of(fp2_base_d a) {
    return {(a.c0 + a.c1) * (a.c0 - a.c1), (a.c0 * a.c1).dbl()};
  }
  CUZK_HD fp2_base_d& operator+=(const fp2_base_d& b) { return *this = *this + b; }
  CUZK_HD fp2_base_d& operator-=(const fp2_base_d& b) { return *this = *this - b; }

  // 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2); 0 for 0.
  CUZK_HD fp2_base_d inverse() const {
    const fp_d t = (c0.sqr() + c1.sqr()).inverse();
    return {c0 * t, -(c1 * t)};
  }

 private:
  struct wide {
    uint32_t v[2 * fp_d::n];
  };
  // p² over 24 limbs, from the host modulus.
  static constexpr wide p_squared() {
    constexpr auto p = fp_d::split(ff::fp_params::modulus);
    wide r{};
    for (int i = 0; i < fp_d::n; ++i) {
      uint64_t carry = 0;
      for (int j = 0; j < fp_d::n; ++j) {
        const uint64_t t = uint64_t(p.v[i]) * p.v[j] + r.v[i + j] + carry;
        r.v[i + j] = uint32_t(t);
        carry = t >> 32;
      }
      r.v[i + fp_d::n] = uint32_t(carry);
    }
    return r;
  }
  // d = x + y and d = x - y over m limbs, carries dropped: callers keep the
  // true results in [0, 2^(32m)).
  template <int m>
  CUZK_HD static void add_raw(uint32_t* d, const uint32_t* x, const uint32_t* y) {
    carry_chain c;
    d[0] = c.add_cc(x[0], y[0]);
CUZK_UNROLL
    for (int j = 1; j < m - 1; ++j) d[j] = c.addc_cc(x[j], y[j]);
    d[m - 1] = c.addc(x[m - 1], y[m - 1]);
  }
  template <int m>
  CUZK_HD static void sub_raw(uint32_t* d, const uint32_t* x, const uint32_t* y) {
    carry_chain c;
    d[0] = c.sub_cc(x[0], y[0]);
CUZK_UNROLL
    for (int j = 1; j < m - 1; ++j) d[j] = c.subc_cc(x[j], y[j]);
    d[m - 1] = c.subc(x[m - 1], y[m - 1]);
  }
};

using fp2_d = fp2_base_d<false>;
using fp2_lazy_d = fp2_base_d<true>;
static_assert(sizeof(fp2_d) == sizeof(ff::fp2_t) && sizeof(fp2_lazy_d) == sizeof(ff::fp2_t));

}  // namespace cuzk::gpu
