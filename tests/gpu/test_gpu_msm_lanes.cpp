// The batched affine bucket sums (msm_lanes.cuh) and the binary-GCD inversion
// (bingcd_d.cuh: mont_d::inverse, which they and every device normalisation
// use), run on the host (CI has no GPU): the inversion
// against the host field's for Fp and Fr, including the values where the
// 64-bit approximations are coarsest; the lanes, chunk by chunk and through
// msm_algo's fix-up, against per-bucket sums of the CPU's group law.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "ec/curves.hpp"
#include "gpu/fp_d.cuh"
#include "gpu/fp_lazy_d.cuh"
#include "gpu/fr_d.cuh"
#include "gpu/msm_lanes.cuh"
#include "msm_test_points.hpp"
#include "test_seed.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::gpu;

template <class D, class H>
D to_d(const H& h) {
  static_assert(sizeof(D) == sizeof(H));
  D d;
  std::memcpy(static_cast<void*>(&d), &h, sizeof d);
  return d;
}
template <class H, class D>
H to_h(const D& d) {
  static_assert(sizeof(D) == sizeof(H));
  H h;
  std::memcpy(static_cast<void*>(&h), &d, sizeof h);
  return h;
}

// Values whose binary GCD is least like a random one's: small, powers of two,
// just below the modulus, all ones, and long runs of equal top bits.
template <class H>
std::vector<H> edge_values() {
  std::vector<H> v{H::one(), -H::one(), H::from_u64(2), H::from_u64(3), -H::from_u64(2), H::from_u64(~0ull)};
  for (int k : {1, 31, 32, 33, 63, 64, 65, 127, 200, 250, 254, 300, 380})
    if (size_t(k) < H::bits) {
      H p = H::one();
      for (int i = 0; i < k; ++i) p = p.dbl();
      v.push_back(p);
      v.push_back(p - H::one());
      v.push_back(-p);
      v.push_back(p + H::one());
    }
  // Canonical values with the top limb full and the rest zero, and all bits below the top.
  auto limbs = H::modulus;
  for (auto& l : limbs) l = 0;
  limbs.back() = H::modulus.back() - 1;
  if (auto x = H::from_canonical(limbs)) v.push_back(*x);
  for (auto& l : limbs) l = ~0ull;
  limbs.back() = H::modulus.back() - 1;
  if (auto x = H::from_canonical(limbs)) v.push_back(*x);
  return v;
}

template <class D, class H>
void check_inverse(const char* name, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<H> xs = edge_values<H>();
  for (int i = 0; i < 20000; ++i) xs.push_back(H::random(rng));
  for (const H& x : xs) {
    if (x.is_zero()) continue;
    D r;
    ASSERT_TRUE(to_d<D>(x).try_inverse(r)) << name << " " << x.to_hex() << " seed " << seed;
    ASSERT_EQ(to_h<H>(r), x.inverse()) << name << " " << x.to_hex() << " seed " << seed;
    ASSERT_EQ(to_h<H>(to_d<D>(x).inverse()), x.inverse()) << name << " " << x.to_hex() << " seed " << seed;
  }
  // Fermat, kept as the fallback, agrees on a few.
  for (size_t i = 0; i < 20; ++i)
    ASSERT_EQ(to_h<H>(to_d<D>(xs[i]).fermat_inverse()), xs[i].inverse()) << name << " seed " << seed;
  D r;
  EXPECT_FALSE(D::zero().try_inverse(r)) << "0 has no inverse: the steps cannot end at gcd 1";
  EXPECT_TRUE(D::zero().inverse().is_zero()) << "0 inverts to 0, as Fermat's does";
}

TEST(gpu_bingcd, fp_inverse_matches_host) { check_inverse<fp_d, ff::fp_t>("fp", cuzk::test::seed("gpu_bingcd fp")); }
TEST(gpu_bingcd, fr_inverse_matches_host) { check_inverse<fr_d, ff::fr_t>("fr", cuzk::test::seed("gpu_bingcd fr")); }

// Through fp_lazy_d (values below 2p: the representative p + x of x too).
TEST(gpu_bingcd, lazy_inverse_of_either_representative) {
  const uint64_t seed = cuzk::test::seed("gpu_bingcd lazy");
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 200; ++i) {
    const ff::fp_t x = ff::fp_t::random(rng);
    fp_lazy_d a = to_d<fp_lazy_d>(x);
    fp_lazy_d b = a + fp_lazy_d::zero();  // x itself
    // x + p: add p limb-wise (x < p, so x + p < 2p is a valid lazy value).
    constexpr auto p = fp_lazy_d::modulus();
    uint64_t c = 0;
    for (int k = 0; k < fp_lazy_d::n; ++k) {
      c += uint64_t(b.v.l[k]) + p.v[k];
      b.v.l[k] = uint32_t(c);
      c >>= 32;
    }
    for (const fp_lazy_d& y : {a, b})
      ASSERT_EQ(to_h<ff::fp_t>(y.inverse().canonical()), x.inverse()) << "seed " << seed;
  }
}

// Sorted digit entries over few bases (so a lane often meets the point it
// holds: doublings, and its negative: an empty sum), a base at infinity,
// digit-0 keys, skewed buckets whose runs cross many chunks, and chunk
// lengths from 1 up; threads of K lanes with the last thread's lanes partly
// idle; then msm_algo's fix-up. Against per-bucket sums on the host.
template <class F, int K>
void check_lanes(uint64_t seed) {
  using C = ec::g1_curve;
  using J = ec::jacobian_t<C>;
  using P = xyzz_d<F>;
  std::mt19937_64 rng(seed);
  auto host_bases = cuzk::gpu::test::random_points<C>(24, rng);
  host_bases.push_back(ec::affine_t<C>::infinity());
  std::vector<affine_d<F>> bases;
  for (const auto& b : host_bases) bases.push_back(to_d<affine_d<F>>(b));
  const uint32_t c = 4, windows = 3, buckets = uint32_t(1) << (c - 1);
  for (int trial = 0; trial < 8; ++trial) {
    const size_t n = trial % 2 ? 300 + rng() % 200 : 1 + rng() % 500;
    std::vector<std::pair<uint32_t, uint32_t>> entries(n);
    for (auto& [key, val] : entries) {
      const uint32_t w = uint32_t(rng() % windows);
      const uint32_t mag = trial % 2 ? (rng() % 4 == 0 ? uint32_t(rng() % (buckets + 1)) : 3u)
                                     : uint32_t(rng() % (buckets + 1));
      key = (w << c) | mag;
      val = uint32_t(rng() % bases.size()) << 1 | uint32_t(rng() % 2);
    }
    std::stable_sort(entries.begin(), entries.end(), [](auto& a, auto& b) { return a.first < b.first; });
    std::vector<uint32_t> keys, vals;
    std::vector<J> want(size_t(windows) * buckets, J::infinity());
    for (const auto& [key, val] : entries) {
      keys.push_back(key);
      vals.push_back(val);
      if (msm_algo::key_magnitude(key, c) == 0) continue;
      const auto& b = host_bases[val >> 1];
      want[msm_algo::bucket_of(key, c, buckets)] += J::from_affine(val & 1 ? -b : b);
    }
    for (size_t threads : {size_t(1), size_t(3), size_t(7), size_t(40)}) {
      const auto plan = msm_lanes::lanes_plan::make(n, threads, K);
      ASSERT_GE(plan.L * plan.chunks, n);
      ASSERT_LT((plan.chunks - 1) * plan.L, n);
      std::vector<P> got(want.size(), P::inf()), head(plan.chunks), tail(plan.chunks);
      std::vector<uint8_t> open(plan.chunks, 7);
      for (size_t t = 0; t < plan.threads; ++t)
        msm_lanes::accumulate_lanes<F, K>(bases.data(), keys.data(), vals.data(), n, plan.L, plan.chunks, t, c,
                                          buckets, got.data(), head.data(), tail.data(), open.data());
      for (size_t t = 0; t < plan.chunks; ++t) {
        ASSERT_LE(open[t], 1u) << "chunk " << t << " left unwritten";
        msm_algo::fixup_chunk(keys.data(), n, plan.L, t, c, buckets, got.data(), head.data(), tail.data(),
                              open.data());
      }
      for (size_t k = 0; k < want.size(); ++k)
        ASSERT_EQ(to_h<ec::xyzz_t<C>>(canonical(got[k])).to_jacobian(), want[k])
            << "trial " << trial << " n=" << n << " threads " << threads << " L " << plan.L << " bucket " << k
            << " seed " << seed;
    }
  }
}

TEST(gpu_msm_emulated, lanes_match_bucket_sums) {
  check_lanes<fp_d, 4>(cuzk::test::seed("gpu_msm_emulated.lanes"));
  check_lanes<fp_d, 1>(cuzk::test::seed("gpu_msm_emulated.lanes one"));
}

TEST(gpu_msm_emulated, lanes_below_2p_match_bucket_sums) {
  check_lanes<fp_lazy_d, 8>(cuzk::test::seed("gpu_msm_emulated.lanes below 2p"));
}

}  // namespace
