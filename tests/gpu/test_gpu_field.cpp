// Device field arithmetic against the host fields. The first tests run the
// device code path on the host (carry_chain emulates each PTX instruction), so
// CI checks the algorithm without a GPU; the others run kernels and skip
// when no GPU is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gpu/device.hpp"
#include "gpu/field_check.hpp"
#include "gpu/fp_d.cuh"
#include "gpu/f52_d.cuh"
#include "gpu/fr_d.cuh"
#include "gpu/probes.hpp"
#include "test_seed.hpp"

namespace {

using namespace cuzk;

#define SKIP_WITHOUT_GPU()                                                                 \
  if (gpu::device_count() == 0) GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 " \
                                                 "(or built without CUDA): GPU test skipped"

// 0, 1, 2, p-1, p-2, R mod p (Montgomery 1 read as raw), R^2 mod p, values one limb below p.
template <class H>
std::vector<H> edge_values() {
  std::vector<H> v = {H::zero(), H::one(), H::one().dbl(), -H::one(), -H::one().dbl(), H::from_mont(H::r1),
                      H::from_mont(H::r2)};
  for (size_t i = 0; i < H::n_limbs; ++i) {
    auto l = H::modulus;
    l[i] -= 1;
    v.push_back(H::from_mont(l));  // p - 2^(64 i): a valid representation < p
  }
  return v;
}

template <class H>
std::vector<H> random_values(std::mt19937_64& rng, size_t n) {
  std::vector<H> v = edge_values<H>();
  while (v.size() < n) v.push_back(H::random(rng));
  return v;
}

// Every edge value meets every other one: the first pairs of a and b.
template <class H>
void put_edge_pairs(std::vector<H>& a, std::vector<H>& b) {
  const auto e = edge_values<H>();
  for (size_t i = 0; i < e.size(); ++i) {
    for (size_t j = 0; j < e.size(); ++j) {
      a[i * e.size() + j] = e[i];
      b[i * e.size() + j] = e[j];
    }
  }
}

template <class D, class H>
D to_d(const H& x) {
  D d;
  std::memcpy(&d, &x, sizeof d);
  return d;
}
template <class H, class D>
H to_h(const D& x) {
  H h;
  std::memcpy(&h, &x, sizeof h);
  return h;
}

template <class H, class D>
void check_emulated(const char* name) {
  std::mt19937_64 rng(test::seed(name));
  auto a = random_values<H>(rng, 4000);
  auto b = random_values<H>(rng, 4000);
  std::shuffle(b.begin(), b.end(), rng);
  for (size_t i = 0; i < a.size(); ++i) {
    for (const auto& [x, y] : {std::pair{a[i], b[i]}, std::pair{a[i], a[i]}, std::pair{b[i], a[i]}}) {
      D dx = to_d<D>(x), dy = to_d<D>(y);
      ASSERT_EQ(to_h<H>(dx + dy), x + y) << x.to_hex() << " + " << y.to_hex();
      ASSERT_EQ(to_h<H>(dx - dy), x - y) << x.to_hex() << " - " << y.to_hex();
      ASSERT_EQ(to_h<H>(dx * dy), x * y) << x.to_hex() << " * " << y.to_hex();
      ASSERT_EQ(to_h<H>(D::mul_karatsuba(dx, dy)), x * y) << "Karatsuba " << x.to_hex() << " * " << y.to_hex();
    }
    const D dx = to_d<D>(a[i]);
    ASSERT_EQ(to_h<H>(dx.sqr_sos()), a[i] * a[i]) << "square of " << a[i].to_hex();
    ASSERT_EQ(to_h<H>(dx.sqr()), a[i] * a[i]) << "sqr() of " << a[i].to_hex();
  }
  EXPECT_EQ(to_h<H>(D::one()), H::one());
  EXPECT_EQ(to_h<H>(D::zero()), H::zero());
}

TEST(gpu_field, fr_device_code_on_host_matches_fr_t) { check_emulated<ff::fr_t, gpu::fr_d>("gpu_field.fr_emulated"); }
TEST(gpu_field, fp_device_code_on_host_matches_fp_t) { check_emulated<ff::fp_t, gpu::fp_d>("gpu_field.fp_emulated"); }

// An f52_d field (FP64 pipe, R' = 2^(52 N), lazily reduced below 2m) through
// its mont_d form and back: products by operator* and by mul_rows (equal
// limb for limb), the test entry point's chain, and chains of 16 that keep
// the lazy values below 2m, their limbs below 2^52, if the bound in
// operator* holds.
template <class H, class F>
void check_f52_emulated(const char* name, size_t n) {
  std::mt19937_64 rng(test::seed(name));
  auto a = random_values<H>(rng, n);
  auto b = random_values<H>(rng, n);
  std::shuffle(b.begin(), b.end(), rng);
  const auto e = edge_values<H>();
  for (size_t i = 0; i < e.size(); ++i) {
    for (size_t j = 0; j < e.size(); ++j) {
      a.push_back(e[i]);
      b.push_back(e[j]);
    }
  }
  using M = typename F::mont_t;
  const auto from = [](const H& x) { return F::from(to_d<M>(x)); };
  const auto back = [](const F& x) { return to_h<H>(x.to_mont()); };
  for (size_t i = 0; i < a.size(); ++i) {
    const F x = from(a[i]), y = from(b[i]);
    ASSERT_EQ(back(x), a[i]) << a[i].to_hex();
    ASSERT_EQ(back(x * y), a[i] * b[i]) << a[i].to_hex() << " * " << b[i].to_hex();
    ASSERT_EQ(back(x * y * y * x), a[i] * b[i] * b[i] * a[i]) << a[i].to_hex() << ", " << b[i].to_hex();
    const F r = F::mul_rows(x, y), xy = x * y;
    for (int k = 0; k < F::n; ++k) ASSERT_EQ(r.l[k], xy.l[k]) << "mul_rows, limb " << k;
    F z = x, w = x;
    H h = a[i];
    for (int k = 0; k < 16; ++k) z *= y, w = F::mul_rows(w, y), h *= b[i];
    ASSERT_EQ(back(z), h) << a[i].to_hex() << " * " << b[i].to_hex() << "^16";
    ASSERT_EQ(back(w), h) << "mul_rows: " << a[i].to_hex() << " * " << b[i].to_hex() << "^16";
    for (int k = 0; k < F::n; ++k) {
      ASSERT_GE(z.l[k], 0.0);
      ASSERT_LT(z.l[k], 0x1p52) << "limb " << k;
    }
  }
}

TEST(gpu_field, fr52_device_code_on_host_matches_fr_t) {
  check_f52_emulated<ff::fr_t, gpu::fr52_d>("gpu_field.fr52_emulated", 4000);
}

// 8 limbs, R' = 2^416.
TEST(gpu_field, fp52_device_code_on_host_matches_fp_t) {
  check_f52_emulated<ff::fp_t, gpu::fp52_d>("gpu_field.fp52_emulated", 3000);
}

// The f52_d test entry points (gpu::fr52_mul_check, gpu::fp52_mul_check):
// 2^16 products and chains on the device against the host field.
template <class H>
void check_f52_kernel(const char* name,
                      void (*check)(std::span<const H>, std::span<const H>, std::span<H>, std::span<H>)) {
  std::mt19937_64 rng(test::seed(name));
  const size_t n = 1 << 16;
  auto a = random_values<H>(rng, n);
  auto b = random_values<H>(rng, n);
  put_edge_pairs(a, b);
  std::vector<H> prod(n), chain(n);
  check(a, b, prod, chain);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(prod[i], a[i] * b[i]) << i << ": " << a[i].to_hex() << " * " << b[i].to_hex();
    ASSERT_EQ(chain[i], a[i] * b[i] * b[i] * a[i]) << i << ": " << a[i].to_hex() << ", " << b[i].to_hex();
  }
}

TEST(gpu_field, fp52_kernel_matches_fp_t) {
  SKIP_WITHOUT_GPU();
  check_f52_kernel<ff::fp_t>("gpu_field.fp52_kernel", gpu::fp52_mul_check);
}

TEST(gpu_field, fr52_kernel_matches_fr_t) {
  SKIP_WITHOUT_GPU();
  check_f52_kernel<ff::fr_t>("gpu_field.fr52_kernel", gpu::fr52_mul_check);
}

template <class H>
void check_on_device(const char* name) {
  std::mt19937_64 rng(test::seed(name));
  const size_t n = 1 << 16;
  auto a = random_values<H>(rng, n);
  auto b = random_values<H>(rng, n);
  put_edge_pairs(a, b);
  std::vector<H> sum(n), diff(n), prod(n);
  gpu::field_ops_on_device(std::span<const H>(a), std::span<const H>(b), std::span<H>(sum), std::span<H>(diff),
                           std::span<H>(prod));
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(sum[i], a[i] + b[i]) << i;
    ASSERT_EQ(diff[i], a[i] - b[i]) << i;
    ASSERT_EQ(prod[i], a[i] * b[i]) << i;
  }
}

TEST(gpu_field, fr_kernel_matches_fr_t) {
  SKIP_WITHOUT_GPU();
  check_on_device<ff::fr_t>("gpu_field.fr_kernel");
}

TEST(gpu_field, fp_kernel_matches_fp_t) {
  SKIP_WITHOUT_GPU();
  check_on_device<ff::fp_t>("gpu_field.fp_kernel");
}

TEST(gpu_field, bytes_survive_a_trip_through_a_kernel) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test::seed("gpu_field.roundtrip"));
  auto in = random_values<ff::fr_t>(rng, 1000);
  std::vector<ff::fr_t> out(in.size());
  gpu::copy_through_device(in, out);
  EXPECT_EQ(0, std::memcmp(in.data(), out.data(), in.size() * sizeof(ff::fr_t)));
}

}  // namespace
