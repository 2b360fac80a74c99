// GPU NTT and compute_h against a plain CPU reference (ntt_reference.hpp,
// itself checked here against the O(n^2) DFT), bit for bit, for every
// variant and the supported pass shapes. Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ff/fr.hpp"
#include "gpu/device.hpp"
#include "gpu/ntt.hpp"
#include "gpu/ntt_reference.hpp"
#include "poly/compute_h.hpp"
#include "poly/ntt.hpp"
#include "test_seed.hpp"

namespace {

using cuzk::ff::fr_t;
using cuzk::gpu::ntt_config;
using cuzk::gpu::ntt_dir;
using namespace cuzk::gpu::test;

#define SKIP_WITHOUT_GPU()                                                                 \
  if (cuzk::gpu::device_count() == 0) GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 " \
                                                       "(or built without CUDA): GPU test skipped"

const char* name(ntt_dir dir, bool coset) {
  if (dir == ntt_dir::forward) return coset ? "coset_ntt" : "ntt";
  return coset ? "coset_intt" : "intt";
}

// ---- tests ----------------------------------------------------------------

TEST(gpu_ntt, reference_matches_quadratic_dft) {
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt.reference"));
  for (uint32_t log_n : {1u, 2u, 5u, 7u}) {
    const size_t n = size_t(1) << log_n;
    auto x = random_vec(rng, n);
    for (bool inverse : {false, true}) {
      fr_t w = cuzk::ff::fr_root_of_unity(log_n);
      if (inverse) w = w.inverse();
      std::vector<fr_t> want(n, fr_t::zero());
      for (size_t k = 0; k < n; ++k) {
        fr_t wk = w.pow(uint64_t(k)), p = fr_t::one();
        for (size_t j = 0; j < n; ++j, p *= wk) want[k] += x[j] * p;
      }
      auto got = x;
      ref_dft(got, inverse);
      EXPECT_EQ(first_diff(got, want), -1) << "log_n " << log_n << " inverse " << inverse;
    }
  }
}

TEST(gpu_ntt, all_variants_match_reference_2_10_to_2_20) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt.variants"));
  for (uint32_t log_n = 10; log_n <= 20; ++log_n) {
    const size_t n = size_t(1) << log_n;
    const auto x = random_vec(rng, n);
    for (ntt_dir dir : {ntt_dir::forward, ntt_dir::inverse}) {
      for (bool coset : {false, true}) {
        auto want = x;
        ref_ntt(want, dir, coset);
        auto got = x;
        cuzk::gpu::ntt(got, log_n, dir, coset);
        ASSERT_EQ(first_diff(got, want), -1) << name(dir, coset) << " 2^" << log_n;
      }
    }
  }
}

TEST(gpu_ntt, small_sizes_match_reference) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt.small"));
  for (uint32_t log_n = 1; log_n < 10; ++log_n) {
    const auto x = random_vec(rng, size_t(1) << log_n);
    for (ntt_dir dir : {ntt_dir::forward, ntt_dir::inverse}) {
      for (bool coset : {false, true}) {
        auto want = x;
        ref_ntt(want, dir, coset);
        auto got = x;
        cuzk::gpu::ntt(got, log_n, dir, coset);
        ASSERT_EQ(first_diff(got, want), -1) << name(dir, coset) << " 2^" << log_n;
      }
    }
  }
}

// Every compiled pass shape, at sizes that give it 1, 2 and 3 passes.
TEST(gpu_ntt, every_config_matches_reference) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt.configs"));
  const ntt_config cfgs[] = {{10, 256}, {11, 256}, {11, 512}, {12, 512}, {12, 1024}};
  for (uint32_t log_n : {10u, 11u, 12u, 17u, 21u, 22u}) {
    const auto x = random_vec(rng, size_t(1) << log_n);
    for (ntt_dir dir : {ntt_dir::forward, ntt_dir::inverse}) {
      const bool coset = log_n % 2 == 1;
      auto want = x;
      ref_ntt(want, dir, coset);
      for (const auto& cfg : cfgs) {
        auto got = x;
        cuzk::gpu::ntt(got, log_n, dir, coset, cfg);
        ASSERT_EQ(first_diff(got, want), -1)
            << name(dir, coset) << " 2^" << log_n << " tile_log " << cfg.tile_log << " threads " << cfg.threads;
      }
    }
  }
}

TEST(gpu_ntt, inverse_undoes_forward_at_2_24) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt.roundtrip"));
  const uint32_t log_n = 24;
  const auto x = random_vec(rng, size_t(1) << log_n);
  for (bool coset : {false, true}) {
    auto y = x;
    cuzk::gpu::ntt(y, log_n, ntt_dir::forward, coset);
    EXPECT_NE(first_diff(y, x), -1);
    cuzk::gpu::ntt(y, log_n, ntt_dir::inverse, coset);
    EXPECT_EQ(first_diff(y, x), -1) << "coset " << coset;
  }
}

TEST(gpu_ntt, matches_poly_cpu_ntt) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt.poly"));
  const uint32_t log_n = 18;
  const cuzk::poly::domain_t d(log_n);
  const auto x = random_vec(rng, d.n);
  auto cpu = x, gpu = x;
  cuzk::poly::coset_ntt(d, cpu);
  cuzk::gpu::ntt(gpu, log_n, ntt_dir::forward, true);
  EXPECT_EQ(first_diff(gpu, cpu), -1);
}

TEST(gpu_ntt, compute_h_matches_reference_and_poly) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt.compute_h"));
  for (uint32_t log_n : {1u, 10u, 16u, 20u}) {
    const size_t n = size_t(1) << log_n;
    const auto a = random_vec(rng, n), b = random_vec(rng, n), c = random_vec(rng, n);
    const auto want = ref_compute_h(a, b, c);
    auto got = a;
    cuzk::gpu::compute_h(got, b, c);
    ASSERT_EQ(first_diff(got, want), -1) << "2^" << log_n;
    if (log_n == 16) {
      const cuzk::poly::domain_t d(log_n);
      auto pa = a, pb = b, pc = c;
      cuzk::poly::compute_h(d, pa, pb, pc);
      EXPECT_EQ(first_diff(got, pa), -1) << "poly::compute_h";
    }
  }
}

// compute_h_resident at 2^22 (128 MiB per vector: several staging chunks
// in flight) against the CPU's poly::compute_h; the host compute_h is the
// same path plus a copy back.
TEST(gpu_ntt, compute_h_resident_matches_poly_through_staging) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt.compute_h_resident"));
  const uint32_t log_n = 22;
  const size_t n = size_t(1) << log_n;
  auto a = random_vec(rng, n), b = random_vec(rng, n), c = random_vec(rng, n);
  const auto h = cuzk::gpu::compute_h_resident(a, b, c);
  ASSERT_EQ(h.size(), n);
  const auto got = h.to_host();
  const cuzk::poly::domain_t d(log_n);
  cuzk::poly::compute_h(d, a, b, c);
  EXPECT_EQ(first_diff(got, a), -1);
  std::vector<fr_t> short_b(n / 2);
  EXPECT_THROW(cuzk::gpu::compute_h_resident(a, short_b, c), std::invalid_argument);
}

// A satisfied system: a·b = c on H makes A·B - C divisible by Z, so H has
// degree <= n - 2 and H·Z = A·B - C at any point; checked at one random x.
TEST(gpu_ntt, compute_h_divides_for_satisfied_witness) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(cuzk::test::seed("gpu_ntt.compute_h_satisfied"));
  const uint32_t log_n = 14;
  const size_t n = size_t(1) << log_n;
  const auto a = random_vec(rng, n), b = random_vec(rng, n);
  std::vector<fr_t> c(n);
  for (size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
  auto h = a;
  cuzk::gpu::compute_h(h, b, c);
  EXPECT_TRUE(h[n - 1].is_zero());
  auto coeffs = [&](std::vector<fr_t> v) {
    ref_ntt(v, ntt_dir::inverse, false);
    return v;
  };
  auto eval = [](const std::vector<fr_t>& p, const fr_t& x) {
    fr_t acc = fr_t::zero();
    for (size_t i = p.size(); i-- > 0;) acc = acc * x + p[i];
    return acc;
  };
  const fr_t x = fr_t::random(rng);
  const fr_t z = x.pow(uint64_t(n)) - fr_t::one();
  EXPECT_EQ(eval(h, x) * z, eval(coeffs(a), x) * eval(coeffs(b), x) - eval(coeffs(c), x));
}

TEST(gpu_ntt, rejects_bad_sizes) {
  SKIP_WITHOUT_GPU();
  std::vector<fr_t> x(1000);
  EXPECT_THROW(cuzk::gpu::ntt(x, 10, ntt_dir::forward), std::invalid_argument);
  std::vector<fr_t> y(1024);
  EXPECT_THROW(cuzk::gpu::ntt(y, 10, ntt_dir::forward, false, ntt_config{10, 128}), std::invalid_argument);
  EXPECT_THROW(cuzk::gpu::ntt(y, 0, ntt_dir::forward), std::invalid_argument);
}

}  // namespace
