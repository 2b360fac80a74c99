// The shared prove_start checks: the parallel row check names the FIRST
// failing row, and the parallel density compaction equals a plain filter.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "groth16/prover_checks.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using ff::fr_t;

TEST(prover_checks, parallel_row_check_names_the_first_failing_row) {
  const std::size_t n = (std::size_t(1) << 18) + 123;  // many chunks, a ragged end
  const uint64_t seed = test::seed("prover_checks_rows");
  std::mt19937_64 rng(seed);
  std::vector<fr_t> a(n), b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = fr_t::from_u64(rng());
    b[i] = fr_t::from_u64(rng());
    c[i] = a[i] * b[i];
  }
  EXPECT_NO_THROW(groth16::check_satisfied(a, b, c));
  for (std::size_t bad : {n - 1, std::size_t(200000), std::size_t(70000)}) {
    c[bad] += fr_t::one();
    try {
      groth16::check_satisfied(a, b, c);
      ADD_FAILURE() << "accepted a broken row " << bad;
    } catch (const std::invalid_argument& e) {
      // The smallest broken row so far is the last one broken (each is lower).
      EXPECT_NE(std::string(e.what()).find("constraint " + std::to_string(bad) + " "), std::string::npos) << e.what();
    }
  }
}

// Rows with a factor 0 or 1 skip the product; each shortcut must still
// reject a wrong c (and accept the right one).
TEST(prover_checks, zero_and_one_factors_are_checked_too) {
  const fr_t x = fr_t::from_u64(0x1234567), y = fr_t::from_u64(99), o = fr_t::one(), z = fr_t::zero();
  struct row_t {
    fr_t a, b, c;
    bool holds;
  };
  const row_t rows[] = {{z, x, z, true},  {z, x, x, false}, {x, z, z, true},  {x, z, o, false}, {o, x, x, true},
                        {o, x, y, false}, {x, o, x, true},  {x, o, o, false}, {o, o, o, true},  {o, o, z, false},
                        {z, z, z, true},  {z, z, o, false}, {x, y, x * y, true}, {x, y, x, false}};
  for (const row_t& r : rows) {
    const std::vector<fr_t> a{o, r.a}, b{o, r.b}, c{o, r.c};
    if (r.holds) {
      EXPECT_NO_THROW(groth16::check_satisfied(a, b, c));
    } else {
      EXPECT_THROW(groth16::check_satisfied(a, b, c), std::invalid_argument);
    }
  }
}

TEST(prover_checks, parallel_compaction_equals_a_plain_filter) {
  const uint64_t seed = test::seed("prover_checks_compact");
  std::mt19937_64 rng(seed);
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(63), std::size_t(64), std::size_t(1) << 19,
                        (std::size_t(1) << 19) + 77}) {
    r1cs::density_tracker d;
    std::vector<fr_t> scalars(n), want;
    for (std::size_t i = 0; i < n; ++i) {
      d.add_element();
      scalars[i] = fr_t::from_u64(i + 1);
      if (rng() % 3 == 0) {
        d.inc(i);
        want.push_back(scalars[i]);
      }
    }
    EXPECT_EQ(groth16::compact_dense(scalars, d), want) << "n = " << n;
  }
  r1cs::density_tracker d;
  d.add_element();
  EXPECT_THROW(groth16::compact_dense(std::vector<fr_t>(2), d), std::logic_error);
}
