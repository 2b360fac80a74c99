#pragma once
// Whole-file reads and writes for the CLI's small files (JSON, proofs); errors
// throw groth16::format_error naming the file, so they end as exit code 2.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>

namespace cuzk::cli {

std::string read_text_file(const std::string& path);
nlohmann::json read_json_file(const std::string& path);
void write_file(const std::string& path, std::span<const uint8_t> bytes);
void write_text_file(const std::string& path, const std::string& text);

}  // namespace cuzk::cli
