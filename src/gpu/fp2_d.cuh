#pragma once
// Fp2 = Fp[u]/(u^2 + 1) on the device, bytes identical to ff::fp2_t (c0, c1).
// Karatsuba product (3 Fp multiplications) and the complex squaring
// (2 multiplications), the same formulas as the host type, so results agree
// bit for bit. Host-compilable like mont_d (CI checks it against ff::fp2_t).
//
// fp2_base_d<true> (fp2_lazy_d) forms the product with two Montgomery
// reductions instead of three: the three 768-bit Karatsuba products are
// combined before reducing (mul_lazy). Values stay fully reduced, so both
// forms give the same bytes. The G2 MSM runs over fp2_lazy_d (field_of in
// msm_impl.cuh): 5.4 % faster than fp2_d over a whole 2^24 MSM on an H100.
//
// fused (fp2_lazy_fused_d): a·b - c·d, the Y of each XYZZ formula (xyzz_d's
// mul_sub_mul), as six 768-bit products combined before two reductions
// instead of two products of two reductions each and a subtraction. Not the
// MSM's: no faster on an H100 (G2 2^24 344.5 against 345.2 ms, 2^22 108.0
// against 105.8; BENCHMARKS.md, session 31), where G1's fused form gained 4.3 %.
//
// Over fp_lazy_d (fp2_below_2p_d, fp2_lazy_below_2p_d) the coordinates are
// below 2p instead of p: the same formulas, with mul_lazy's bounds taken for
// operands below 2p (see there); canonical() gives fp2_d's bytes.
#include <type_traits>

#include "ff/fp2.hpp"
#include "gpu/fp_d.cuh"
#include "gpu/fp_lazy_d.cuh"

namespace cuzk::gpu {

template <bool lazy_product, class B = fp_d, bool fused = false>
struct alignas(16) fp2_base_d {
  static_assert(std::is_same_v<B, fp_d> || std::is_same_v<B, fp_lazy_d>);
  static_assert(!fused || (lazy_product && std::is_same_v<B, fp_d>), "mul_sub_mul's bounds are for values below p");
  static constexpr bool below_2p = std::is_same_v<B, fp_lazy_d>;
  B c0, c1;

  CUZK_HD static fp2_base_d zero() { return {B::zero(), B::zero()}; }
  CUZK_HD static fp2_base_d one() { return {B::one(), B::zero()}; }
  // The fully reduced value (fp2_d's bytes).
  CUZK_HD fp2_base_d<false> canonical() const
    requires below_2p
  {
    return {c0.canonical(), c1.canonical()};
  }
  CUZK_HD bool operator==(const fp2_base_d& b) const { return c0 == b.c0 && c1 == b.c1; }
  CUZK_HD bool operator!=(const fp2_base_d& b) const { return !(*this == b); }
  CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }

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
    B aa = a.c0 * b.c0, bb = a.c1 * b.c1;
    B s = (a.c0 + a.c1) * (b.c0 + b.c1);
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
  // Over fp_lazy_d (a_i, b_i < 2p): sums < 4p, A, B < 4p², S < 16p², so
  // c1 = S - A - B < 8p² and c0 = A + 4p² - B in (0, 8p²); 8p² < p·R
  // (R/p ≈ 9.85), and reduce_wide<false> leaves each below p + 1 + 8p²/R
  // < 2p.
#if defined(__CUDACC__)
  __host__ __device__ __noinline__
#else
  inline
#endif
  static fp2_base_d mul_lazy(fp2_base_d a, fp2_base_d b) {
    constexpr int n = fp_d::n, w = 2 * n;
    uint32_t sa[n], sb[n];
    add_raw<n>(sa, limbs(a.c0), limbs(a.c1));
    add_raw<n>(sb, limbs(b.c0), limbs(b.c1));
    uint32_t A[w], Bw[w], S[w];
    fp_d::product<n>(A, limbs(a.c0), limbs(b.c0));
    fp_d::product<n>(Bw, limbs(a.c1), limbs(b.c1));
    fp_d::product<n>(S, sa, sb);
    sub_raw<w>(S, S, A);
    sub_raw<w>(S, S, Bw);
    constexpr wide p2 = p_squared(below_2p ? 2 : 0);  // above B's bound: p², or 4p² below 2p
    add_raw<w>(A, A, p2.v);
    sub_raw<w>(A, A, Bw);
    return {B{fp_d::reduce_wide<!below_2p>(A)}, B{fp_d::reduce_wide<!below_2p>(S)}};
  }

  // a·b - c·d with two reductions (fused only): over the integers, with the
  // Karatsuba products A, B, S of a·b and A', B', S' of c·d (operands below
  // p, so A, B < p², S < 4p², and S - A - B = a0·b1 + a1·b0 < 2p²),
  //   c0 = 2p² + (A - B) - (A' - B'),                in (0, 4p²),
  //   c1 = 2p² + (S - A - B) - (S' - A' - B'),       in (0, 4p²),
  // and 4p² < p·R, so reduce_wide gives each fully reduced. The sums run
  // modulo 2^768 in any order (only the end value is bounded). 6 × 144 limb
  // products and 2 reductions instead of 6 × 144 and 4, and no Fp2
  // subtraction.
#if defined(__CUDACC__)
  __host__ __device__ __noinline__
#else
  inline
#endif
  static fp2_base_d mul_sub_mul(fp2_base_d a, fp2_base_d b, fp2_base_d c, fp2_base_d d)
    requires fused
  {
    constexpr int n = fp_d::n, w = 2 * n;
    constexpr wide p2 = p_squared(1);
    uint32_t t0[w], t1[w], x[w], s[n], u[n];
    fp_d::product<n>(x, limbs(a.c0), limbs(b.c0));  // A
    add_raw<w>(t0, p2.v, x);
    sub_raw<w>(t1, p2.v, x);
    fp_d::product<n>(x, limbs(a.c1), limbs(b.c1));  // B
    sub_raw<w>(t0, t0, x);
    sub_raw<w>(t1, t1, x);
    add_raw<n>(s, limbs(a.c0), limbs(a.c1));
    add_raw<n>(u, limbs(b.c0), limbs(b.c1));
    fp_d::product<n>(x, s, u);  // S
    add_raw<w>(t1, t1, x);
    fp_d::product<n>(x, limbs(c.c0), limbs(d.c0));  // A'
    sub_raw<w>(t0, t0, x);
    add_raw<w>(t1, t1, x);
    fp_d::product<n>(x, limbs(c.c1), limbs(d.c1));  // B'
    add_raw<w>(t0, t0, x);
    add_raw<w>(t1, t1, x);
    add_raw<n>(s, limbs(c.c0), limbs(c.c1));
    add_raw<n>(u, limbs(d.c0), limbs(d.c1));
    fp_d::product<n>(x, s, u);  // S'
    sub_raw<w>(t1, t1, x);
    return {B{fp_d::reduce_wide(t0)}, B{fp_d::reduce_wide(t1)}};
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
    const B t = (c0.sqr() + c1.sqr()).inverse();
    return {c0 * t, -(c1 * t)};
  }

 private:
  struct wide {
    uint32_t v[2 * fp_d::n];
  };
  CUZK_HD static const uint32_t* limbs(const B& x) {
    if constexpr (below_2p) {
      return x.v.l;
    } else {
      return x.l;
    }
  }
  // p² · 2^shift over 24 limbs, from the host modulus (4p² < 2^762: no overflow).
  static constexpr wide p_squared(int shift) {
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
    for (int k = 0; k < shift; ++k) {
      uint32_t top = 0;
      for (int i = 0; i < 2 * fp_d::n; ++i) {
        const uint32_t next = r.v[i] >> 31;
        r.v[i] = (r.v[i] << 1) | top;
        top = next;
      }
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
using fp2_lazy_fused_d = fp2_base_d<true, fp_d, true>;
using fp2_lazy_d = fp2_base_d<true>;
using fp2_below_2p_d = fp2_base_d<false, fp_lazy_d>;
using fp2_lazy_below_2p_d = fp2_base_d<true, fp_lazy_d>;
static_assert(sizeof(fp2_d) == sizeof(ff::fp2_t) && sizeof(fp2_lazy_fused_d) == sizeof(ff::fp2_t));
static_assert(sizeof(fp2_lazy_d) == sizeof(ff::fp2_t));
static_assert(sizeof(fp2_below_2p_d) == sizeof(ff::fp2_t) && sizeof(fp2_lazy_below_2p_d) == sizeof(ff::fp2_t));

}  // namespace cuzk::gpu
