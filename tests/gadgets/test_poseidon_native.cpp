// Native Poseidon against independently published vectors for Filecoin's
// instantiation, the neptune round-number table, and the textbook permutation.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gadgets/poseidon_native.hpp"
#include "test_seed.hpp"

using namespace cuzk::gadgets;
using cuzk::ff::fr_t;

namespace {

// Four 64-bit limbs, least significant first (neptune's scalar_from_u64s).
fr_t from_limbs(std::uint64_t l0, std::uint64_t l1, std::uint64_t l2, std::uint64_t l3) {
  return *fr_t::from_canonical({l0, l1, l2, l3});
}

std::vector<fr_t> counting_preimage(std::size_t arity) {
  std::vector<fr_t> v;
  for (std::size_t i = 0; i < arity; ++i) v.push_back(fr_t::from_u64(i));
  return v;
}

}  // namespace

// neptune src/round_numbers.rs test_round_numbers_against_known_values
// (argumentcomputer/neptune): R_F = 8 and these R_P for t = 2..65.
TEST(PoseidonNative, RoundNumbersMatchNeptuneTable) {
  const std::pair<std::size_t, std::size_t> cases[] = {{2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},
                                                       {7, 56},  {8, 57},  {9, 57},  {10, 57}, {11, 57},
                                                       {12, 57}, {13, 57}, {14, 57}, {15, 57}, {16, 59},
                                                       {17, 59}, {25, 59}, {37, 60}, {65, 61}};
  for (auto [t, rp] : cases) {
    auto [rf_got, rp_got] = poseidon_round_numbers(t);
    EXPECT_EQ(rf_got, 8u) << "t=" << t;
    EXPECT_EQ(rp_got, rp) << "t=" << t;
  }
}

// First Grain constant for t = 9 (FILECOIN_POREP.md §3.2, checked there
// against filecoin-project/neptune parameters/round_constants-1-1-255-9-8-57-*.txt),
// and the domain tags 2^arity - 1.
TEST(PoseidonNative, ConstantsShape) {
  const poseidon_params_t& p = poseidon_params(8);
  EXPECT_EQ(p.round_constants.size(), 585u);
  std::string first = p.round_constants[0].to_hex();
  EXPECT_EQ(first.substr(0, 8), "6ce90d12") << first;
  EXPECT_EQ(first.substr(first.size() - 8), "f2f4c2f9") << first;
  EXPECT_EQ(poseidon_params(11).domain_tag, fr_t::from_u64(2047));
  EXPECT_EQ(poseidon_params(2).domain_tag, fr_t::from_u64(3));
  EXPECT_EQ(poseidon_params(2).partial_rounds, 55u);
  EXPECT_EQ(poseidon_params(4).partial_rounds, 56u);
  EXPECT_EQ(poseidon_params(11).partial_rounds, 57u);
  for (std::size_t a : {2u, 4u, 8u, 11u}) {
    const auto& q = poseidon_params(a);
    EXPECT_EQ(q.compressed_constants.size(), q.full_rounds * q.width + q.partial_rounds);
    EXPECT_EQ(q.sparse.size(), q.partial_rounds);
  }
  EXPECT_THROW(poseidon_params(3), std::invalid_argument);
  std::vector<fr_t> three(3, fr_t::one());
  EXPECT_THROW(poseidon_hash(three), std::invalid_argument);
}

// neptune src/poseidon.rs, test `hash_values_aux` with Strength::Standard
// (argumentcomputer/neptune; the same vectors in filecoin-project/neptune):
// preimage [0, 1, .., arity-1] under PoseidonConstants::new().
TEST(PoseidonNative, NeptuneVectors) {
  struct vec_t {
    std::size_t arity;
    fr_t want;
  };
  const vec_t vectors[] = {
      {2, from_limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b)},
      {4, from_limbs(0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a)},
      {8, from_limbs(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55)},
      {11, from_limbs(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28)},
  };
  for (const auto& v : vectors) {
    std::vector<fr_t> in = counting_preimage(v.arity);
    EXPECT_EQ(poseidon_hash(in), v.want) << "arity " << v.arity;
    EXPECT_EQ(poseidon_hash_reference(poseidon_params(v.arity), in), v.want) << "reference, arity " << v.arity;
  }
}

// rust-fil-proofs filecoin-hashers/src/poseidon.rs test_poseidon_hasher
// (filecoin-project/rust-fil-proofs): H(1, 0) and the root of the binary tree
// over leaves [1, 0, 0, 1] (FILECOIN_POREP.md §3.2).
TEST(PoseidonNative, RustFilProofsHasherVectors) {
  fr_t one = fr_t::one(), zero = fr_t::zero();
  std::array<fr_t, 2> a{one, zero};
  EXPECT_EQ(poseidon_hash(a),
            from_limbs(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3));
  std::array<fr_t, 2> b{zero, one};
  std::array<fr_t, 2> top{poseidon_hash(a), poseidon_hash(b)};
  EXPECT_EQ(poseidon_hash(top),
            from_limbs(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb));
}

TEST(PoseidonNative, OptimizedMatchesReferenceOnRandomInputs) {
  std::mt19937_64 rng(cuzk::test::seed("PoseidonNative.OptimizedMatchesReferenceOnRandomInputs"));
  for (std::size_t arity : {2u, 4u, 8u, 11u}) {
    for (int k = 0; k < 5; ++k) {
      std::vector<fr_t> in;
      for (std::size_t i = 0; i < arity; ++i) in.push_back(fr_t::random(rng));
      ASSERT_EQ(poseidon_hash(in), poseidon_hash_reference(poseidon_params(arity), in)) << "arity " << arity;
    }
  }
}
