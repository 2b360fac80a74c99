#pragma once
// Reading and writing vanilla_proof_t as JSON (format: vanilla_format.md).
// The parser checks syntax and shape (counts, lengths, field elements < r)
// and throws vanilla_format_error naming the first bad element; whether the
// values are consistent is check_vanilla's job.
#include <filesystem>
#include <nlohmann/json_fwd.hpp>

#include "porep/vanilla_format_error.hpp"
#include "porep/vanilla_proof_t.hpp"

namespace cuzk::porep {

inline constexpr const char* vanilla_format_name = "cuzk-porep-vanilla/1";

nlohmann::json vanilla_to_json(const vanilla_proof_t& proof);
vanilla_proof_t vanilla_from_json(const nlohmann::json& j);

void write_vanilla_file(const std::filesystem::path& file, const vanilla_proof_t& proof);
// Throws vanilla_format_error (element "<file>" for I/O and JSON syntax errors).
vanilla_proof_t read_vanilla_file(const std::filesystem::path& file);

}  // namespace cuzk::porep
