#include "groth16/public_inputs.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "groth16/format_error.hpp"

namespace cuzk::groth16 {

std::vector<ff::fr_t> parse_public_inputs(const std::string& text, const std::string& name) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw format_error(name, "not valid JSON");
  if (!j.is_array()) throw format_error(name, "expected a JSON array of decimal strings");
  std::vector<ff::fr_t> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) throw format_error(name, "input " + std::to_string(i) + " is not a string");
    const std::string s = j[i].get<std::string>();
    const bool hex = s.starts_with("0x") || s.starts_with("0X");
    // fr_t::from_hex reads a bare "0x" as zero; a prefix without digits is no number.
    std::optional<ff::fr_t> v;
    if (!hex) v = ff::fr_t::from_decimal(s);
    else if (s.size() > 2) v = ff::fr_t::from_hex(s);
    if (!v) throw format_error(name, "input " + std::to_string(i) + " is not a number below r: \"" + s + "\"");
    out.push_back(*v);
  }
  return out;
}

std::vector<ff::fr_t> read_public_inputs(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw format_error(path, "cannot open");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_public_inputs(ss.str(), path);
}

std::string format_public_inputs(const std::vector<ff::fr_t>& inputs) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& x : inputs) j.push_back(x.to_decimal());
  return j.dump(1) + "\n";
}

void write_public_inputs(const std::string& path, const std::vector<ff::fr_t>& inputs) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << format_public_inputs(inputs);
  if (!out) throw format_error(path, "write failed");
}

}  // namespace cuzk::groth16
