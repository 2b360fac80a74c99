// parse_public_inputs on arbitrary text: every accepted string has the shape
// the format allows (decimal digits, or 0x and hex digits), and accepted inputs
// survive a format -> parse round trip unchanged.
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_common.hpp"
#include "groth16/public_inputs.hpp"

using namespace cuzk;

namespace {

bool well_formed(const std::string& s) {
  auto all = [&](size_t from, auto pred) {
    if (from >= s.size()) return false;
    for (size_t i = from; i < s.size(); ++i) {
      if (!pred(s[i])) return false;
    }
    return true;
  };
  auto dec = [](char c) { return c >= '0' && c <= '9'; };
  auto hex = [&](char c) { return dec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); };
  if (s.starts_with("0x") || s.starts_with("0X")) return all(2, hex);
  return all(0, dec);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::expect_only_format_errors([&] {
    std::string text(reinterpret_cast<const char*>(data), size);
    auto v = groth16::parse_public_inputs(text, "fuzz");
    auto j = nlohmann::json::parse(text);
    fuzz::fuzz_require(j.is_array() && j.size() == v.size(), "one value per array element");
    for (const auto& e : j) fuzz::fuzz_require(e.is_string() && well_formed(e.get<std::string>()), "only numbers accepted");
    auto again = groth16::parse_public_inputs(groth16::format_public_inputs(v), "fuzz-roundtrip");
    fuzz::fuzz_require(again == v, "formatted public inputs parse back to the same values");
  });
}
