// make_circuit_with_input: the witness from JSON reaches the circuit (checked
// through public inputs computed independently), and bad input is refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "circuits/circuit_input.hpp"
#include "circuits/hash_chain_native.hpp"
#include "r1cs/test_cs.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using ff::fr_t;
using nlohmann::json;

namespace {

bool satisfied(const circuits::any_circuit& c) {
  r1cs::test_cs cs;
  c.synthesize(cs);
  return cs.is_satisfied();
}

}  // namespace

TEST(circuit_input, tiny_takes_x) {
  auto c = circuits::make_circuit_with_input("tiny", 0, json{{"x", "7"}});
  auto in = c->public_inputs();
  ASSERT_EQ(in.size(), 3u);
  EXPECT_EQ(in[0], fr_t::from_u64(7 * 7 * 7 + 7 + 5));  // y = x^3 + x + 5
  EXPECT_EQ(in[1], fr_t::from_u64(7));                  // sel = x (bit set)
  EXPECT_TRUE(satisfied(*c));
}

TEST(circuit_input, hash_chain_takes_x0_in_any_notation) {
  uint64_t seed = test::seed("circuit_input.hash_chain");
  std::mt19937_64 rng(seed);
  fr_t x0 = fr_t::random(rng);
  for (const json& v : {json(x0.to_decimal()), json("0x" + x0.to_hex())}) {
    auto c = circuits::make_circuit_with_input("hash-chain", 30, json{{"x0", v}});
    auto in = c->public_inputs();
    ASSERT_EQ(in.size(), 2u);
    EXPECT_EQ(in[0], x0);
    EXPECT_EQ(in[1], circuits::hash_chain_native(x0, 9));  // (30 - 3) / 3 rounds
    EXPECT_TRUE(satisfied(*c));
  }
  auto c = circuits::make_circuit_with_input("hash-chain", 30, json{{"x0", 5}});
  EXPECT_EQ(c->public_inputs()[0], fr_t::from_u64(5));
}

TEST(circuit_input, rejects_bad_input) {
  // The modulus r is the smallest value refused; r - 1 is accepted. r is r - 1
  // incremented in decimal (it cannot be formed as a field element).
  const std::string r_minus_1 = (-fr_t::one()).to_decimal();
  std::string modulus = r_minus_1;
  for (size_t i = modulus.size(); i-- > 0;) {
    if (modulus[i] != '9') {
      ++modulus[i];
      break;
    }
    modulus[i] = '0';
  }
  const json bad[] = {
      json::array(),                       // not an object
      json::object(),                      // missing x
      json{{"x", "3"}, {"y", "1"}},        // unknown key
      json{{"x", "abc"}},                  // not a number
      json{{"x", -3}},                     // negative
      json{{"x", 1.5}},                    // not an integer
      json{{"x", modulus}},                // not below r
      json{{"x0", "3"}},                   // the other circuit's key
  };
  for (const auto& j : bad) {
    EXPECT_THROW(circuits::make_circuit_with_input("tiny", 0, j), std::invalid_argument) << j.dump();
  }
  EXPECT_NO_THROW(circuits::make_circuit_with_input("tiny", 0, json{{"x", r_minus_1}}));
  EXPECT_THROW(circuits::make_circuit_with_input("no-such-circuit", 0, json::object()), std::invalid_argument);
}
