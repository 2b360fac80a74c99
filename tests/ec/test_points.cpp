// Group laws, subgroup checks and encodings for G1 and G2 on seeded random points.
#include <gtest/gtest.h>

#include <random>

#include "ec/ec.hpp"
#include "test_seed.hpp"

using namespace cuzk::ec;

template <class T>
struct group_traits;
template <>
struct group_traits<g1_curve> {
  static g1_affine_t gen() { return g1_generator(); }
};
template <>
struct group_traits<g2_curve> {
  static g2_affine_t gen() { return g2_generator(); }
};

template <class C>
class group_laws : public ::testing::Test {};
using curve_types = ::testing::Types<g1_curve, g2_curve>;
TYPED_TEST_SUITE(group_laws, curve_types);

TYPED_TEST(group_laws, add_double_mul_consistent) {
  using C = TypeParam;
  using J = jacobian_t<C>;
  std::mt19937_64 rng(cuzk::test::seed("group_laws"));
  J G = J::from_affine(group_traits<C>::gen());
  EXPECT_TRUE(group_traits<C>::gen().is_on_curve());
  for (int i = 0; i < 10; ++i) {
    fr_t a = fr_t::random(rng), b = fr_t::random(rng);
    J A = G.mul(a), B = G.mul(b);
    EXPECT_EQ(A + B, G.mul(a + b));
    EXPECT_EQ(A.dbl(), A + A);
    EXPECT_EQ(A.add_mixed(B.to_affine()), A + B);
    EXPECT_EQ(A.add_mixed(A.to_affine()), A.dbl());
    EXPECT_TRUE((A - A).is_inf());
    EXPECT_TRUE(A.to_affine().is_on_curve());
    xyzz_t<C> acc = xyzz_t<C>::infinity();
    acc.add_mixed(A.to_affine());
    acc.add_mixed(B.to_affine());
    acc.add_mixed(B.to_affine());
    EXPECT_EQ(acc.to_jacobian(), A + B.dbl());
    acc.add(acc);
    EXPECT_EQ(acc.to_jacobian(), (A + B.dbl()).dbl());
    acc.sub_mixed(A.to_affine());
    EXPECT_EQ(acc.to_jacobian(), A + B.dbl().dbl());
  }
  EXPECT_TRUE(G.mul_limbs(fr_t::modulus).is_inf());
}

// Fixed-base tables of every shape (windows that divide 64 and windows that
// straddle limbs), one at a time and batched, against double-and-add, on
// random scalars and the edges.
TYPED_TEST(group_laws, fixed_base_matches_double_and_add_at_every_window) {
  using C = TypeParam;
  using J = jacobian_t<C>;
  std::mt19937_64 rng(cuzk::test::seed("fixed_base"));
  const J G = J::from_affine(group_traits<C>::gen());
  std::vector<fr_t> ks{fr_t::zero(), fr_t::one(), -fr_t::one(), fr_t::one().dbl()};
  for (int i = 0; i < 12; ++i) ks.push_back(fr_t::random(rng));
  for (size_t c : {1u, 3u, 7u, 8u, 11u, 13u, 16u}) {
    const fixed_base_t<C> table(group_traits<C>::gen(), c);
    EXPECT_EQ(table.window_bits(), c);
    for (const auto& k : ks) EXPECT_EQ(table.mul(k), G.mul(k)) << "window bits " << c;
    // The batch path (shared inversions), zero and repeated scalars included.
    std::vector<affine_t<C>> got(ks.size() + 1);
    std::vector<fr_t> batch = ks;
    batch.push_back(ks[7]);
    table.mul_batch(std::span<const fr_t>(batch), std::span(got));
    for (size_t i = 0; i < batch.size(); ++i) EXPECT_EQ(got[i], G.mul(batch[i]).to_affine()) << c << "/" << i;
  }
  EXPECT_THROW(fixed_base_t<C>(group_traits<C>::gen(), 17), std::invalid_argument);
  // The batch sizing: small batches small windows, setup-sized ones 16 bits.
  EXPECT_LE(fixed_base_t<C>::window_bits_for(100), 6u);
  EXPECT_EQ(fixed_base_t<C>::window_bits_for(size_t(1) << 22), 16u);
  EXPECT_EQ(fixed_base_t<C>::for_batch(group_traits<C>::gen(), 1000).mul(ks[5]), G.mul(ks[5]));
}

TYPED_TEST(group_laws, fast_subgroup_check_matches_order_check) {
  using C = TypeParam;
  using A = affine_t<C>;
  using F = typename C::field_t;
  std::mt19937_64 rng(cuzk::test::seed("subgroup"));
  A g = jacobian_t<C>::from_affine(group_traits<C>::gen()).mul(fr_t::random(rng)).to_affine();
  EXPECT_TRUE(in_subgroup(g));
  EXPECT_TRUE(in_subgroup_by_order(g));
  // Random curve points almost never lie in the subgroup (cofactor > 1).
  // About half of all x give a curve point; draw until four points were tried.
  int outside = 0, tried = 0;
  for (int i = 0; i < 200 && tried < 4; ++i) {
    F x = F::random(rng);
    auto y = (x.sqr() * x + C::b()).sqrt();
    if (!y) continue;
    ++tried;
    A p{x, *y};
    ASSERT_TRUE(p.is_on_curve());
    EXPECT_EQ(in_subgroup(p), in_subgroup_by_order(p));
    outside += !in_subgroup_by_order(p);
  }
  EXPECT_GT(outside, 0);
}

TYPED_TEST(group_laws, encodings_round_trip) {
  using C = TypeParam;
  using A = affine_t<C>;
  std::mt19937_64 rng(cuzk::test::seed("encodings"));
  for (int i = 0; i < 8; ++i) {
    A p = jacobian_t<C>::from_affine(group_traits<C>::gen()).mul(fr_t::random(rng)).to_affine();
    A q;
    auto c = compress(p);
    ASSERT_EQ(decode(c, q), point_error::none);
    EXPECT_EQ(p, q);
    auto u = serialize(p);
    ASSERT_EQ(decode(u, q), point_error::none);
    EXPECT_EQ(p, q);
    c[0] ^= 0x80;
    EXPECT_EQ(decode(c, q), point_error::bad_flags);
  }
  A inf = A::infinity(), q;
  EXPECT_EQ(decode(compress(inf), q), point_error::none);
  EXPECT_TRUE(q.is_inf());
}
