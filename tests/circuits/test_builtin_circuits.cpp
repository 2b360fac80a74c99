// Built-in circuits: every mode agrees on sizes, the test system is satisfied
// by the honest witness and names the broken constraint otherwise, the
// witness mode matches keygen's matrices, and the hash chain matches an
// independent native computation.
#include <gtest/gtest.h>

#include <random>

#include "circuits/circuits.hpp"
#include "r1cs/r1cs.hpp"
#include "test_seed.hpp"

namespace {
// witness_cs keeps r1cs::fr_vector (another allocator); compare as std::vector.
template <class V>
std::vector<cuzk::ff::fr_t> as_std(const V& v) {
  return {v.begin(), v.end()};
}
}  // namespace

using namespace cuzk;
using namespace cuzk::circuits;
using cuzk::ff::fr_t;

namespace {

std::vector<bool> bits(const r1cs::density_tracker& d) {
  std::vector<bool> v(d.size());
  for (size_t i = 0; i < d.size(); ++i) v[i] = d.get(i);
  return v;
}

// All modes on one circuit; returns the witness for further checks.
template <class C>
r1cs::witness_cs check_modes_agree(const C& circuit, size_t want_constraints) {
  r1cs::shape_cs s;
  r1cs::keygen_cs k;
  r1cs::witness_cs w;
  r1cs::test_cs t;
  circuit.synthesize(s);
  circuit.synthesize(k);
  circuit.synthesize(w);
  circuit.synthesize(t);
  EXPECT_EQ(s.num_constraints(), want_constraints);
  EXPECT_EQ(k.counts(), s.counts());
  EXPECT_EQ(w.counts(), s.counts());
  EXPECT_EQ(t.counts(), s.counts());
  EXPECT_EQ(t.which_is_unsatisfied(), std::nullopt);
  EXPECT_TRUE(t.verify(circuit.public_inputs()));
  EXPECT_EQ(t.input_values(), as_std(w.input_assignment()));
  EXPECT_EQ(t.aux_values(), as_std(w.aux_assignment()));

  s.add_input_constraints();
  k.add_input_constraints();
  w.add_input_constraints();
  EXPECT_EQ(w.counts(), s.counts());
  // R1CS satisfaction read off the witness path, input rows included.
  for (size_t i = 0; i < w.num_constraints(); ++i) EXPECT_EQ(w.a()[i] * w.b()[i], w.c()[i]) << "row " << i;
  auto a = k.a_columns(), b = k.b_columns(), c = k.c_columns();
  EXPECT_EQ(a.multiply(w.input_assignment(), w.aux_assignment()), as_std(w.a()));
  EXPECT_EQ(b.multiply(w.input_assignment(), w.aux_assignment()), as_std(w.b()));
  EXPECT_EQ(c.multiply(w.input_assignment(), w.aux_assignment()), as_std(w.c()));
  EXPECT_EQ(bits(a.input_density()), bits(w.a_input_density()));
  EXPECT_EQ(bits(a.aux_density()), bits(w.a_aux_density()));
  EXPECT_EQ(bits(b.input_density()), bits(w.b_input_density()));
  EXPECT_EQ(bits(b.aux_density()), bits(w.b_aux_density()));
  EXPECT_EQ(w.a_input_density().total_density(), w.num_inputs());
  return w;
}

// (x + k)^5 by square-and-multiply pow, not the circuit's sqr chain.
fr_t chain_by_pow(fr_t x, size_t rounds) {
  for (size_t i = 0; i < rounds; ++i) {
    fr_t k = fr_t::from_u64(i).pow(3) + fr_t::from_u64(42);
    x = (x + k).pow(5);
  }
  return x;
}

}  // namespace

TEST(tiny_circuit, modes_agree_and_witness_is_valid) {
  std::mt19937_64 rng(cuzk::test::seed("tiny_circuit"));
  for (bool bit : {true, false}) {
    tiny_circuit c(fr_t::random(rng), bit);
    auto w = check_modes_agree(c, 29);
    EXPECT_EQ(w.num_inputs(), 4u);
    fr_t x = w.aux_assignment()[0];
    auto pub = c.public_inputs();
    EXPECT_EQ(pub[0], x.pow(3) + x + fr_t::from_u64(5));
    EXPECT_EQ(pub[1], bit ? x : pub[0]);
  }
  check_modes_agree(tiny_circuit(), 29);
  EXPECT_EQ(tiny_circuit().public_inputs()[0], fr_t::from_u64(35));
}

TEST(tiny_circuit, wrong_public_y_names_the_cubic) {
  r1cs::test_cs t;
  tiny_circuit().with_claimed_y(fr_t::from_u64(36)).synthesize(t);
  EXPECT_EQ(t.which_is_unsatisfied(), "y = x^3 + x + 5");

  r1cs::test_cs t2;
  tiny_circuit().synthesize(t2);
  t2.set_value(*t2.find_variable("squares/u7"), fr_t::from_u64(1));
  EXPECT_EQ(t2.which_is_unsatisfied(), "squares/u7 = u6^2 + 6");
}

TEST(tiny_circuit, without_witness_only_valueless_modes_run) {
  tiny_circuit c(std::nullopt);
  r1cs::shape_cs s;
  r1cs::keygen_cs k;
  EXPECT_NO_THROW(c.synthesize(s));
  EXPECT_NO_THROW(c.synthesize(k));
  EXPECT_EQ(k.num_constraints(), 29u);
  r1cs::witness_cs w;
  EXPECT_THROW(c.synthesize(w), r1cs::synthesis_error);
}

TEST(hash_chain, native_matches_pow_and_circuit_output) {
  std::mt19937_64 rng(cuzk::test::seed("hash_chain"));
  fr_t x0 = fr_t::random(rng);
  const size_t rounds = 50;
  EXPECT_EQ(hash_chain_native(x0, rounds), chain_by_pow(x0, rounds));
  hash_chain_circuit c(rounds, x0);
  auto w = check_modes_agree(c, 3 * rounds);
  EXPECT_EQ(w.num_inputs(), 3u);
  EXPECT_EQ(w.num_aux(), 3 * rounds - 1);
  EXPECT_EQ(w.input_assignment()[2], hash_chain_native(x0, rounds));
  EXPECT_EQ(c.public_inputs(), (std::vector<fr_t>{x0, hash_chain_native(x0, rounds)}));
}

TEST(hash_chain, round_constants_agree_across_the_u64_boundary) {
  for (size_t i : {size_t(0), size_t(1), size_t(7), (size_t(1) << 21) - 1, size_t(1) << 21, (size_t(1) << 21) + 5}) {
    EXPECT_EQ(hash_chain_round_constant(i), fr_t::from_u64(i).pow(3) + fr_t::from_u64(42)) << i;
  }
}

TEST(hash_chain, wrong_output_names_the_last_round) {
  r1cs::test_cs t;
  hash_chain_circuit(10).with_claimed_output(fr_t::from_u64(5)).synthesize(t);
  EXPECT_EQ(t.which_is_unsatisfied(), "round 9/x = t4 * t");

  r1cs::test_cs t2;
  hash_chain_circuit(10).synthesize(t2);
  t2.set_value(*t2.find_variable("round 3/t4"), fr_t::from_u64(5));
  EXPECT_EQ(t2.which_is_unsatisfied(), "round 3/t4 = t2 * t2");
}

TEST(hash_chain, from_constraints_fills_the_domain) {
  for (size_t log_n : {4, 10, 16, 20}) {
    size_t target = size_t(1) << log_n;
    auto c = hash_chain_circuit::from_constraints(target, std::nullopt);
    r1cs::shape_cs s;
    c.synthesize(s);
    s.add_input_constraints();
    EXPECT_LE(s.num_constraints(), target);
    EXPECT_GT(s.num_constraints() + hash_chain_circuit::constraints_per_round, target);
  }
  EXPECT_EQ(hash_chain_circuit::from_constraints(1 << 16).rounds(), 21844u);
  EXPECT_THROW(hash_chain_circuit::from_constraints(5), std::invalid_argument);
}

TEST(circuit_registry, builds_every_named_circuit) {
  EXPECT_EQ(circuit_names(), (std::vector<std::string>{"tiny", "hash-chain"}));
  for (const auto& name : circuit_names()) {
    auto c = make_circuit(name, 1 << 10);
    EXPECT_EQ(c->name(), name);
    EXPECT_FALSE(c->description().empty());
    r1cs::shape_cs s;
    c->synthesize(s);
    EXPECT_EQ(s.num_inputs(), c->public_inputs().size() + 1);
    r1cs::test_cs t;
    c->synthesize(t);
    EXPECT_TRUE(t.verify(c->public_inputs())) << name;
    s.add_input_constraints();
    EXPECT_LE(s.num_constraints(), size_t(1) << 10);
  }
  r1cs::shape_cs s;
  make_circuit("hash-chain")->synthesize(s);
  s.add_input_constraints();
  EXPECT_EQ(s.num_constraints(), 3 * 21844u + 3);
  EXPECT_THROW(make_circuit("nope"), std::invalid_argument);
}
