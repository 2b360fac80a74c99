#pragma once
// The lookups registered_seal_proof_t.cpp and registered_post_proof_t.cpp
// share over their tables: a proof by id, by name, and parsed from a command
// line or configuration value (a number or a name). Their errors name the
// proof family, the id or text given, and what would have been valid.
#include <charconv>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cuzk::filecoin {

template <class proof_t>
struct registered_lookup_t {
  std::span<const proof_t> table;  // in id order: table[i].id == i
  std::string_view family;         // "seal", "PoSt"
  std::string_view id_ranges;      // "0..19 (0-4 V1, ...)"
  std::string_view name_examples;  // "\"StackedDrg32GiBV1_1\""
  bool (*has_name)(const proof_t&, std::string_view);

  // For a static_assert next to the table, which by_id indexes by id.
  constexpr bool in_id_order() const {
    for (std::size_t i = 0; i < table.size(); ++i)
      if (table[i].id != i) return false;
    return true;
  }

  const proof_t& by_id(std::uint64_t id) const {
    if (id >= table.size())
      throw std::invalid_argument("registered " + std::string(family) + " proof " + std::to_string(id) +
                                  " is not one of " + std::string(id_ranges));
    return table[id];
  }

  const proof_t& by_name(std::string_view name) const {
    for (const auto& p : table)
      if (has_name(p, name)) return p;
    throw std::invalid_argument("\"" + std::string(name) + "\" is not a registered " + std::string(family) +
                                " proof (e.g. " + std::string(name_examples) + ")");
  }

  // "" -> nullopt; a decimal id or a name -> its id.
  std::optional<std::uint64_t> parse(std::string_view text) const {
    if (text.empty()) return std::nullopt;
    std::uint64_t id = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec == std::errc() && end == text.data() + text.size()) return by_id(id).id;
    return by_name(text).id;
  }
};

}  // namespace cuzk::filecoin
