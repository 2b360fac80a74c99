#include "circuits/circuit_input.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "circuits/circuit_model.hpp"
#include "circuits/circuit_registry.hpp"
#include "circuits/hash_chain_circuit.hpp"
#include "circuits/tiny_circuit.hpp"

namespace cuzk::circuits {
namespace {

using ff::fr_t;

fr_t field_value(const nlohmann::json& input, const std::string& circuit, const std::string& key) {
  auto it = input.find(key);
  if (it == input.end()) throw std::invalid_argument(circuit + " input: missing \"" + key + "\"");
  std::optional<fr_t> v;
  if (it->is_string()) {
    const auto& s = it->get_ref<const std::string&>();
    v = (s.starts_with("0x") || s.starts_with("0X")) ? fr_t::from_hex(s) : fr_t::from_decimal(s);
  } else if (it->is_number_unsigned() || (it->is_number_integer() && it->get<int64_t>() >= 0)) {
    v = fr_t::from_u64(it->get<uint64_t>());
  }
  if (!v) {
    throw std::invalid_argument(circuit + " input: \"" + key + "\" must be a decimal or 0x-hex string below r, got " +
                                it->dump());
  }
  return *v;
}

void require_only(const nlohmann::json& input, const std::string& circuit, std::string_view key) {
  if (!input.is_object()) throw std::invalid_argument(circuit + " input: expected a JSON object");
  for (const auto& [k, _] : input.items()) {
    if (k != key) {
      throw std::invalid_argument(circuit + " input: unknown key \"" + k + "\" (expected \"" + std::string(key) +
                                  "\")");
    }
  }
}

}  // namespace

std::unique_ptr<any_circuit> make_circuit_with_input(std::string_view name, size_t size,
                                                     const nlohmann::json& input) {
  if (name == "tiny") {
    require_only(input, "tiny", "x");
    return std::make_unique<circuit_model<tiny_circuit>>("tiny", tiny_circuit(field_value(input, "tiny", "x")));
  }
  if (name == "hash-chain") {
    require_only(input, "hash-chain", "x0");
    auto c = hash_chain_circuit::from_constraints(size ? size : default_hash_chain_size,
                                                  field_value(input, "hash-chain", "x0"));
    return std::make_unique<circuit_model<hash_chain_circuit>>("hash-chain", std::move(c));
  }
  for (const auto& known : circuit_names()) {
    if (known == name) throw std::invalid_argument("circuit '" + known + "' does not take an input file");
  }
  return make_circuit(name, size);  // throws the registry's "unknown circuit" message
}

}  // namespace cuzk::circuits
