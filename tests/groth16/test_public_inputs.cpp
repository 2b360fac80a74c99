// public.json parsing: the accepted forms, the range limit r, and malformed
// inputs (including those the fuzzer's shape check guards).
#include <gtest/gtest.h>

#include "groth16/format_error.hpp"
#include "groth16/public_inputs.hpp"

using namespace cuzk;
using groth16::parse_public_inputs;

TEST(public_inputs, decimal_hex_and_the_range_limit) {
  // r - 1 is the largest element of Fr.
  const std::string r_minus_1 = "52435875175126190479447740508185965837690552500527637822603658699938581184512";
  auto v = parse_public_inputs(R"(["0", "7", "0x1F", ")" + r_minus_1 + R"("])", "t");
  ASSERT_EQ(v.size(), 4u);
  EXPECT_TRUE(v[0].is_zero());
  EXPECT_EQ(v[1], ff::fr_t::from_u64(7));
  EXPECT_EQ(v[2], ff::fr_t::from_u64(31));
  EXPECT_EQ(v[3], -ff::fr_t::one());
  EXPECT_EQ(parse_public_inputs(groth16::format_public_inputs(v), "t"), v);
  EXPECT_TRUE(parse_public_inputs("[]", "t").empty());
}

TEST(public_inputs, malformed_inputs_are_rejected) {
  const char* bad[] = {
      R"(["52435875175126190479447740508185965837690552500527637822603658699938581184513"])",  // r
      R"(["0x"])", R"(["0X"])", R"([""])", R"(["-1"])", R"(["+1"])", R"([" 1"])", R"(["1e3"])", R"(["0x1g"])",
      R"([1])", R"({"a": "1"})", R"(["1")", "", "not json"};
  for (const char* text : bad) EXPECT_THROW(parse_public_inputs(text, "t"), groth16::format_error) << text;
}
