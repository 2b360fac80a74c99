// MSM against the naive sum of double-and-add products, for G1 and G2, on
// seeded random inputs and the edge cases of the 0/1 split and the signed windows.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "msm/batch_add.hpp"
#include "msm/msm.hpp"
#include "msm/pippenger.hpp"
#include "msm/pippenger_plan.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using namespace cuzk::msm;
using ec::affine_t;
using ec::jacobian_t;
using ff::fr_t;

namespace {

template <class C>
affine_t<C> generator();
template <>
ec::g1_affine_t generator<ec::g1_curve>() { return ec::g1_generator(); }
template <>
ec::g2_affine_t generator<ec::g2_curve>() { return ec::g2_generator(); }

// A + i * B for random A, B: distinct points without a scalar multiplication each.
template <class C>
std::vector<affine_t<C>> random_bases(size_t n, std::mt19937_64& rng) {
  using J = jacobian_t<C>;
  J g = J::from_affine(generator<C>());
  J p = g.mul(fr_t::random(rng)), step = g.mul(fr_t::random(rng));
  std::vector<J> pts(n);
  for (size_t i = 0; i < n; ++i, p += step) pts[i] = p;
  return ec::batch_to_affine<C>(pts);
}

std::vector<fr_t> random_scalars(size_t n, std::mt19937_64& rng) {
  std::vector<fr_t> s(n);
  for (auto& x : s) x = fr_t::random(rng);
  return s;
}

fr_t r_minus_1() { return -fr_t::one(); }

template <class C>
jacobian_t<C> naive(std::span<const affine_t<C>> bases, std::span<const fr_t> scalars) {
  jacobian_t<C> acc = jacobian_t<C>::infinity();
  for (size_t i = 0; i < bases.size(); ++i) acc += jacobian_t<C>::from_affine(bases[i]).mul(scalars[i]);
  return acc;
}

template <class C>
jacobian_t<C> run(const std::vector<affine_t<C>>& b, const std::vector<fr_t>& s, msm_options opt = {}) {
  return msm::msm<C>(std::span<const affine_t<C>>(b), std::span<const fr_t>(s), opt);
}

constexpr msm_options split_always{0, bit_split::always};
constexpr msm_options split_never{0, bit_split::never};

}  // namespace

template <class C>
class msm_test : public ::testing::Test {};
using curve_types = ::testing::Types<ec::g1_curve, ec::g2_curve>;
TYPED_TEST_SUITE(msm_test, curve_types);

TYPED_TEST(msm_test, random_sizes_match_naive) {
  using C = TypeParam;
  std::mt19937_64 rng(test::seed("msm random sizes"));
  for (size_t n : {1, 2, 3, 17, 100, 1000}) {
    auto b = random_bases<C>(n, rng);
    auto s = random_scalars(n, rng);
    auto want = naive<C>(b, s);
    EXPECT_EQ(run<C>(b, s), want) << "n=" << n;
    EXPECT_EQ(run<C>(b, s, split_always), want) << "n=" << n;
  }
}

TYPED_TEST(msm_test, every_window_width) {
  using C = TypeParam;
  std::mt19937_64 rng(test::seed("msm window widths"));
  auto b = random_bases<C>(40, rng);
  auto s = random_scalars(40, rng);
  s[0] = r_minus_1();
  s[1] = fr_t::from_u64(2);
  auto want = naive<C>(b, s);
  // Wider windows are covered by the recoding test; here each costs 2^(c-1) buckets per window.
  for (unsigned c = signed_digits_t::min_bits; c <= 12; ++c)
    EXPECT_EQ(run<C>(b, s, {c, bit_split::never}), want) << "c=" << c;
}

TYPED_TEST(msm_test, zero_and_one_scalars) {
  using C = TypeParam;
  std::mt19937_64 rng(test::seed("msm zero one"));
  const size_t n = 700;
  auto b = random_bases<C>(n, rng);
  std::vector<fr_t> zeros(n, fr_t::zero()), ones(n, fr_t::one());
  EXPECT_TRUE(run<C>(b, zeros).is_inf());
  EXPECT_TRUE(run<C>(b, zeros, split_never).is_inf());
  jacobian_t<C> sum = jacobian_t<C>::infinity();
  for (const auto& p : b) sum = sum.add_mixed(p);
  EXPECT_EQ(run<C>(b, ones), sum);
  EXPECT_EQ(run<C>(b, ones, split_never), sum);
  EXPECT_EQ(sum_bases<C>(b), sum);
  EXPECT_EQ(sum_xyzz<C>(b, point_index_t::all(n)), sum);
}

TYPED_TEST(msm_test, mixed_bits_and_random) {
  using C = TypeParam;
  std::mt19937_64 rng(test::seed("msm mixed"));
  const size_t n = 1000;
  auto b = random_bases<C>(n, rng);
  std::vector<fr_t> s(n);
  for (auto& x : s) {
    uint64_t k = rng() % 10;
    x = k < 4 ? fr_t::zero() : k < 7 ? fr_t::one() : k < 8 ? r_minus_1() : fr_t::random(rng);
  }
  auto want = naive<C>(b, s);
  EXPECT_EQ(run<C>(b, s), want);
  EXPECT_EQ(run<C>(b, s, split_always), want);
  EXPECT_EQ(run<C>(b, s, split_never), want);
}

// Equal and opposite points meet in one bucket and in one affine pair; the
// doubling and cancelling branches of both must hold.
TYPED_TEST(msm_test, repeated_and_opposite_bases) {
  using C = TypeParam;
  std::mt19937_64 rng(test::seed("msm repeated"));
  auto distinct = random_bases<C>(3, rng);
  std::vector<affine_t<C>> b;
  for (int i = 0; i < 600; ++i) b.push_back(i % 5 == 4 ? -distinct[i % 3] : distinct[i % 3]);
  std::vector<fr_t> s(b.size());
  for (size_t i = 0; i < s.size(); ++i) s[i] = i % 3 == 0 ? fr_t::one() : fr_t::from_u64(rng() % 8);
  auto want = naive<C>(b, s);
  EXPECT_EQ(run<C>(b, s), want);
  EXPECT_EQ(run<C>(b, s, split_never), want);
  EXPECT_EQ(run<C>(b, s, {3, bit_split::always}), want);
  // A point and its negative, paired in the first tree layer, then doubled ones.
  std::vector<affine_t<C>> pm;
  for (int i = 0; i < 300; ++i) pm.push_back(i % 2 ? -distinct[0] : distinct[0]);
  for (int i = 0; i < 300; ++i) pm.push_back(distinct[1]);
  EXPECT_EQ(sum_bases<C>(pm), jacobian_t<C>::from_affine(distinct[1]).mul_u64(300));
}

TYPED_TEST(msm_test, r_minus_1_and_single_point) {
  using C = TypeParam;
  std::mt19937_64 rng(test::seed("msm r-1"));
  auto b = random_bases<C>(1, rng);
  std::vector<fr_t> s{r_minus_1()};
  EXPECT_EQ(run<C>(b, s), jacobian_t<C>::from_affine(-b[0]));
  s[0] = fr_t::random(rng);
  EXPECT_EQ(run<C>(b, s), jacobian_t<C>::from_affine(b[0]).mul(s[0]));
  std::vector<affine_t<C>> b2(20, b[0]);
  std::vector<fr_t> s2(20, r_minus_1());
  EXPECT_EQ(run<C>(b2, s2), jacobian_t<C>::from_affine(-b[0]).mul_u64(20));
  EXPECT_TRUE(run<C>({}, {}).is_inf());
}

TYPED_TEST(msm_test, bases_at_infinity) {
  using C = TypeParam;
  std::mt19937_64 rng(test::seed("msm infinity"));
  const size_t n = 400;
  auto b = random_bases<C>(n, rng);
  for (size_t i = 0; i < n; i += 3) b[i] = affine_t<C>::infinity();
  std::vector<fr_t> s(n);
  for (size_t i = 0; i < n; ++i) s[i] = i % 2 ? fr_t::one() : fr_t::random(rng);
  auto want = naive<C>(b, s);
  EXPECT_EQ(run<C>(b, s), want);
  EXPECT_EQ(run<C>(b, s, split_never), want);
  std::vector<affine_t<C>> all_inf(n, affine_t<C>::infinity());
  EXPECT_TRUE(run<C>(all_inf, s).is_inf());
}

TYPED_TEST(msm_test, density_matches_expanded_naive) {
  using C = TypeParam;
  std::mt19937_64 rng(test::seed("msm density"));
  const size_t vars = 333;  // not a multiple of 64
  std::vector<bool> bits(vars);
  for (size_t i = 0; i < vars; ++i) bits[i] = rng() % 4 != 0;
  std::vector<fr_t> s(vars);
  for (size_t i = 0; i < vars; ++i) s[i] = i % 3 == 0 ? fr_t::random(rng) : fr_t::from_u64(i % 2);
  std::vector<uint64_t> words = pack_density(bits);
  words.back() |= ~uint64_t(0) << (vars % 64);  // bits past size are ignored
  density_view d{words, vars};
  auto b = random_bases<C>(d.count(), rng);
  std::vector<affine_t<C>> expanded_b;
  std::vector<fr_t> expanded_s;
  for (size_t i = 0, k = 0; i < vars; ++i) {
    if (bits[i]) expanded_b.push_back(b[k++]), expanded_s.push_back(s[i]);
  }
  auto want = naive<C>(expanded_b, expanded_s);
  EXPECT_EQ(msm_dense<C>(b, s, d), want);
  auto canonical = to_canonical(s);
  EXPECT_EQ(msm_dense<C>(b, std::span<const scalar_limbs_t>(canonical), d, split_never), want);
  EXPECT_THROW(msm_dense<C>(std::span(b).first(b.size() - 1), s, d), std::invalid_argument);
  EXPECT_THROW(msm_dense<C>(b, std::span(s).first(vars - 1), d), std::invalid_argument);
}

TYPED_TEST(msm_test, single_thread_arena) {
  using C = TypeParam;
  std::mt19937_64 rng(test::seed("msm one thread"));
  auto b = random_bases<C>(200, rng);
  auto s = random_scalars(200, rng);
  for (size_t i = 0; i < 200; i += 4) s[i] = fr_t::one();
  jacobian_t<C> got;
  tbb::task_arena(1).execute([&] { got = run<C>(b, s); });
  EXPECT_EQ(got, naive<C>(b, s));
}

// Plans with several point chunks (what many-core machines get) on a 2-core box,
// over all positions and over a position list.
TYPED_TEST(msm_test, chunked_plans_and_index_lists) {
  using C = TypeParam;
  std::mt19937_64 rng(test::seed("msm chunks"));
  const size_t n = 90;
  auto b = random_bases<C>(n, rng);
  auto s = random_scalars(n, rng);
  auto limbs = to_canonical(s);
  std::vector<uint32_t> odd;
  std::vector<affine_t<C>> odd_b;
  std::vector<fr_t> odd_s;
  for (uint32_t i = 1; i < n; i += 2) odd.push_back(i), odd_b.push_back(b[i]), odd_s.push_back(s[i]);
  auto want = naive<C>(b, s), want_odd = naive<C>(odd_b, odd_s);
  for (pippenger_plan_t plan : {pippenger_plan_t{4, 3}, pippenger_plan_t{7, 7}, pippenger_plan_t{5, 90}}) {
    EXPECT_EQ(pippenger<C>(b, limbs, point_index_t::all(n), plan), want) << plan.window_bits << "/" << plan.chunks;
    EXPECT_EQ(pippenger<C>(b, limbs, point_index_t::of(odd), plan), want_odd) << plan.window_bits;
  }
}

TEST(msm_args, rejects_bad_input) {
  std::mt19937_64 rng(test::seed("msm args"));
  auto b = random_bases<ec::g1_curve>(4, rng);
  std::vector<fr_t> s(3, fr_t::one());
  EXPECT_THROW(run<ec::g1_curve>(b, s), std::invalid_argument);
  std::vector<scalar_limbs_t> big(4, scalar_limbs_t{});
  big[2] = fr_t::modulus;
  EXPECT_THROW(msm::msm<ec::g1_curve>(b, std::span<const scalar_limbs_t>(big)), std::invalid_argument);
}

// More than one batch-addition chunk, so partial sums are joined across tasks.
TEST(msm_batch_add, several_chunks) {
  std::mt19937_64 rng(test::seed("msm batch add chunks"));
  const size_t n = batch_add_chunk + batch_add_chunk / 2 + 7;
  auto b = random_bases<ec::g1_curve>(n, rng);
  b[5] = ec::g1_affine_t::infinity();
  b[batch_add_chunk] = b[batch_add_chunk + 1];
  ec::g1_jacobian_t want = ec::g1_jacobian_t::infinity();
  for (const auto& p : b) want = want.add_mixed(p);
  EXPECT_EQ(sum_bases<ec::g1_curve>(b), want);
}

// sum_w d_w 2^(c w) == s with every digit in [-2^(c-1), 2^(c-1) - 1].
TEST(msm_signed_digits, recode_reconstructs_scalar) {
  std::mt19937_64 rng(test::seed("msm signed digits"));
  std::vector<fr_t> s = random_scalars(50, rng);
  s.push_back(r_minus_1());
  s.push_back(fr_t::zero());
  s.push_back(fr_t::one());
  // Runs of bits that pass carries through many windows.
  s.push_back(*fr_t::from_hex("3fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"));
  s.push_back(*fr_t::from_hex("5555555555555555555555555555555555555555555555555555555555555555"));
  for (unsigned c = signed_digits_t::min_bits; c <= signed_digits_t::max_bits; ++c) {
    signed_digits_t sd(c);
    EXPECT_LE(sd.windows() * c, 255 + c + 1) << c;
    fr_t radix = fr_t::from_u64(uint64_t(1) << c);
    for (const fr_t& x : s) {
      scalar_limbs_t limbs = x.to_canonical();
      fr_t acc = fr_t::zero();
      for (unsigned w = sd.windows(); w-- > 0;) {
        int d = sd.digit(limbs, w);
        ASSERT_GE(d, -int(sd.buckets()));
        ASSERT_LT(d, int(sd.buckets()));
        fr_t fd = fr_t::from_u64(uint64_t(d < 0 ? -d : d));
        acc = acc * radix + (d < 0 ? -fd : fd);
      }
      EXPECT_EQ(acc, x) << "c=" << c << " x=" << x.to_hex();
    }
  }
}

// Plans are internally consistent; no timing claims here.
TEST(msm_plan, stays_in_bounds) {
  for (size_t threads : {1, 2, 16, 96}) {
    for (size_t n : {1, 7, 1000, 1 << 16, 1 << 22}) {
      pippenger_plan_t p = pippenger_plan_t::choose(n, threads);
      EXPECT_GE(p.window_bits, signed_digits_t::min_bits);
      EXPECT_LE(p.window_bits, 16u);
      EXPECT_GE(p.chunks, 1u);
      EXPECT_LE(p.chunks, std::max<size_t>(1, std::min(n, 4 * threads)));
    }
  }
  EXPECT_EQ(pippenger_plan_t::choose(1000, 4, 7).window_bits, 7u);
}
