// The run-time field arithmetic (x86 asm kernels where the target has them)
// against the portable constexpr reference (mont_field::*_generic), for Fp and
// Fr: edge values, operands that stress carries, seeded random values, aliased
// operands, and values folded at compile time.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ff/ff.hpp"
#include "test_seed.hpp"

using namespace cuzk::ff;

namespace {

template <class F>
using limbs_of = typename F::limbs;

template <class F>
limbs_of<F> modulus_minus(uint64_t k) {
  limbs_of<F> x = F::modulus;
  limbs_of<F> s{};
  s[0] = k;
  big_sub(x, s);
  return x;
}

// Montgomery representations (any value < p is one) chosen for the carry paths:
// 0, 1, p-1, p-2, R mod p (the representation of one) and R^2 mod p, words of
// all ones under the top word of p, single high words, and (p-1)/2, (p+1)/2.
template <class F>
std::vector<F> edge_values() {
  constexpr size_t n = F::n_limbs;
  std::vector<limbs_of<F>> raw;
  raw.push_back({});
  raw.push_back({1});
  raw.push_back({2});
  raw.push_back(modulus_minus<F>(1));
  raw.push_back(modulus_minus<F>(2));
  raw.push_back(F::r1);
  raw.push_back(F::r2);
  for (size_t top = 0; top < n; ++top) {
    limbs_of<F> x{};
    for (size_t i = 0; i < top; ++i) x[i] = ~uint64_t(0);
    x[top] = F::modulus[top] - (top + 1 == n ? 1 : 0);
    raw.push_back(x);
    limbs_of<F> y{};
    y[top] = top + 1 == n ? F::modulus[top] - 1 : ~uint64_t(0);
    raw.push_back(y);
  }
  limbs_of<F> half = F::modulus;
  big_shr1(half);  // (p-1)/2
  raw.push_back(half);
  half[0] += 1;  // (p+1)/2
  raw.push_back(half);
  std::vector<F> out;
  for (const auto& x : raw) {
    EXPECT_TRUE(big_less(x, F::modulus));
    out.push_back(F::from_mont(x));
  }
  return out;
}

// Random values whose words are drawn from {0, 1, all ones, the word of p, a
// random word}, so long carry and borrow runs are common; rejected when >= p.
template <class F, class Rng>
F carry_heavy(Rng& rng) {
  for (;;) {
    limbs_of<F> x{};
    for (size_t i = 0; i < F::n_limbs; ++i) {
      switch (rng() % 5) {
        case 0: x[i] = 0; break;
        case 1: x[i] = 1; break;
        case 2: x[i] = ~uint64_t(0); break;
        case 3: x[i] = F::modulus[i]; break;
        default: x[i] = rng(); break;
      }
    }
    if (big_less(x, F::modulus)) return F::from_mont(x);
  }
}

template <class F>
void expect_ops_match(const F& a, const F& b) {
  SCOPED_TRACE("a=" + a.to_hex() + " b=" + b.to_hex());
  EXPECT_EQ((a * b).l, F::mul_generic(a.l, b.l));
  EXPECT_EQ((a + b).l, F::add_generic(a.l, b.l));
  EXPECT_EQ((a - b).l, F::sub_generic(a.l, b.l));
  EXPECT_EQ(a.sqr().l, F::mul_generic(a.l, a.l));
  EXPECT_EQ(a.dbl().l, F::add_generic(a.l, a.l));
  EXPECT_EQ((-a).l, F::sub_generic(limbs_of<F>{}, a.l));
}

}  // namespace

template <class F>
class mont_mul : public ::testing::Test {};
using mont_mul_fields = ::testing::Types<fp_t, fr_t>;
TYPED_TEST_SUITE(mont_mul, mont_mul_fields);

TYPED_TEST(mont_mul, edge_values_match_generic) {
  using F = TypeParam;
  std::cout << "[info] x86 kernels for " << F::n_limbs
            << " limbs: " << (x86::has_kernels<F::n_limbs> ? "on" : "off") << std::endl;
  auto v = edge_values<F>();
  for (const auto& a : v) {
    for (const auto& b : v) expect_ops_match(a, b);
  }
}

TYPED_TEST(mont_mul, random_values_match_generic) {
  using F = TypeParam;
  std::mt19937_64 rng(cuzk::test::seed("mont_mul_random"));
  for (int i = 0; i < 20000; ++i) {
    F a = F::random(rng), b = F::random(rng);
    expect_ops_match(a, b);
    F c = carry_heavy<F>(rng), d = carry_heavy<F>(rng);
    expect_ops_match(c, d);
    expect_ops_match(a, c);
    if (::testing::Test::HasFailure()) break;  // one trace is enough
  }
}

TYPED_TEST(mont_mul, aliased_operands) {
  using F = TypeParam;
  std::mt19937_64 rng(cuzk::test::seed("mont_mul_alias"));
  for (int i = 0; i < 1000; ++i) {
    F a = carry_heavy<F>(rng);
    F x = a;
    x *= x;
    EXPECT_EQ(x.l, F::mul_generic(a.l, a.l));
    x = a;
    x += x;
    EXPECT_EQ(x.l, F::add_generic(a.l, a.l));
    x = a;
    x -= x;
    EXPECT_TRUE(x.is_zero());
  }
}

// A long dependent chain: every result feeds the next operation, as in pow.
TYPED_TEST(mont_mul, chained_results_match_generic) {
  using F = TypeParam;
  std::mt19937_64 rng(cuzk::test::seed("mont_mul_chain"));
  F y = F::random(rng), z = F::random(rng);
  F x = F::random(rng);
  auto g = x.l;
  for (int i = 0; i < 5000; ++i) {
    x = (x * y + z).sqr() - y;
    auto t = F::add_generic(F::mul_generic(g, y.l), z.l);
    g = F::sub_generic(F::mul_generic(t, t), y.l);
  }
  EXPECT_EQ(x.l, g);
}

// Constant evaluation takes the generic path; its results must agree with the
// run-time path on the same inputs.
TEST(mont_mul_constexpr, folded_values_match_run_time) {
  constexpr fr_t c_fr = fr_t::from_u64(0x1234567890abcdef) * fr_t::from_u64(0xfedcba0987654321) -
                        fr_t::from_u64(7).sqr();
  constexpr fp_t c_fp = (fp_t::from_u64(0xfedcba0987654321) + fp_t::from_u64(3)).sqr() *
                        -fp_t::from_u64(0x1234567890abcdef);
  static_assert(fr_t::one() * fr_t::one() == fr_t::one());
  static_assert(fp_t::from_u64(6) * fp_t::from_u64(7) == fp_t::from_u64(42));
  volatile uint64_t k1 = 0x1234567890abcdef, k2 = 0xfedcba0987654321, k3 = 7;
  EXPECT_EQ(fr_t::from_u64(k1) * fr_t::from_u64(k2) - fr_t::from_u64(k3).sqr(), c_fr);
  EXPECT_EQ((fp_t::from_u64(k2) + fp_t::from_u64(3)).sqr() * -fp_t::from_u64(k1), c_fp);
}
