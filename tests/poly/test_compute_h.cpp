// Groth16 H against schoolbook polynomial division by Z = x^n - 1: for A, B of
// degree < n, A·B = H·Z + C with H = the top n-1 coefficients of A·B and
// C = low half + top half, so the truth needs no NTT at all.
#include <gtest/gtest.h>

#include <random>

#include "naive_poly.hpp"
#include "poly/poly.hpp"
#include "test_seed.hpp"

using namespace cuzk::poly;
using cuzk::ff::fr_t;

TEST(compute_h, matches_schoolbook_division) {
  std::mt19937_64 rng(cuzk::test::seed("compute_h.schoolbook"));
  for (const ntt_layout& layout : {ntt_layout{}, ntt_layout{.leaf_log = 3, .pass_log_max = 2}}) {
    for (uint32_t k = 0; k <= 9; ++k) {
      SCOPED_TRACE("log_n=" + std::to_string(k) + " leaf_log=" + std::to_string(layout.leaf_log));
      domain_t d(k, layout);
      const size_t n = d.n;
      auto A = naive::random_vec(rng, n), B = naive::random_vec(rng, n);
      auto P = naive::mul(A, B);  // degree <= 2n - 2
      std::vector<fr_t> H(P.begin() + n, P.end());
      std::vector<fr_t> C(P.begin(), P.begin() + n);
      for (size_t i = 0; i < H.size(); ++i) C[i] += H[i];

      auto a = naive::dft(A, d.omega), b = naive::dft(B, d.omega), c = naive::dft(C, d.omega);
      compute_h(d, a, b, c);
      for (size_t i = 0; i + 1 < n; ++i) ASSERT_EQ(a[i], H[i]) << i;
      EXPECT_TRUE(a[n - 1].is_zero());
    }
  }
}

// At sizes where the schoolbook product is too slow: c = a·b on H makes A·B - C
// divisible by Z; check A(t)B(t) - C(t) = H(t)(t^n - 1) at random t.
TEST(compute_h, identity_at_random_point) {
  std::mt19937_64 rng(cuzk::test::seed("compute_h.identity"));
  for (uint32_t k : {13u, 16u}) {
    SCOPED_TRACE("log_n=" + std::to_string(k));
    domain_t d(k);
    auto A = naive::random_vec(rng, d.n), B = naive::random_vec(rng, d.n);
    auto a = A, b = B;
    ntt(d, a);
    ntt(d, b);
    std::vector<fr_t> c(d.n);
    for (size_t i = 0; i < d.n; ++i) c[i] = a[i] * b[i];
    auto C = c;
    intt(d, C);
    compute_h(d, a, b, c);
    EXPECT_TRUE(a[d.n - 1].is_zero());
    for (int s = 0; s < 3; ++s) {
      fr_t t = fr_t::random(rng);
      fr_t lhs = naive::eval(A, t) * naive::eval(B, t) - naive::eval(C, t);
      fr_t rhs = naive::eval(a, t) * (t.pow(d.n) - fr_t::one());
      EXPECT_EQ(lhs, rhs);
    }
  }
}

// Bellman's definition, point by point, for any a, b, c (a witness that is
// not satisfied too): A, B, C interpolated from H, evaluated at each coset
// point g·omega^j, (A·B - C) / (g^n - 1) there, interpolated back from the
// coset by the O(n^2) sum coef_i = 1/n sum_j v_j (g omega^j)^-i.
TEST(compute_h, equals_bellmans_coset_quotient_for_any_evaluations) {
  std::mt19937_64 rng(cuzk::test::seed("compute_h.bellman"));
  for (const ntt_layout& layout : {ntt_layout{}, ntt_layout{.leaf_log = 3, .pass_log_max = 2}}) {
    for (uint32_t k = 0; k <= 6; ++k) {
      SCOPED_TRACE("log_n=" + std::to_string(k) + " leaf_log=" + std::to_string(layout.leaf_log));
      domain_t d(k, layout);
      const size_t n = d.n;
      auto a = naive::random_vec(rng, n), b = naive::random_vec(rng, n), c = naive::random_vec(rng, n);
      auto coeffs = [&](std::vector<fr_t> v) {  // interpolation from H
        intt(d, v);
        return v;
      };
      const auto A = coeffs(a), B = coeffs(b), C = coeffs(c);
      const fr_t z_inv = (d.g.pow(n) - fr_t::one()).inverse();
      std::vector<fr_t> v(n), want(n, fr_t::zero());
      for (size_t j = 0; j < n; ++j) {
        const fr_t x = d.g * d.omega.pow(j);
        v[j] = (naive::eval(A, x) * naive::eval(B, x) - naive::eval(C, x)) * z_inv;
      }
      for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) want[i] += v[j] * (d.g * d.omega.pow(j)).inverse().pow(i);
        want[i] *= d.n_inv;
      }
      compute_h(d, a, b, c);
      ASSERT_EQ(a, want);
    }
  }
}

TEST(compute_h, rejects_wrong_sizes) {
  domain_t d(4);
  std::vector<fr_t> a(16), b(16), c(15);
  EXPECT_THROW(compute_h(d, a, b, c), std::invalid_argument);
}
