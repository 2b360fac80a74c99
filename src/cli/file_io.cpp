#include "cli/file_io.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "groth16/format_error.hpp"

namespace cuzk::cli {

using groth16::format_error;

std::string read_text_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw format_error(path, "is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw format_error(path, std::string("cannot open: ") + std::strerror(errno));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

nlohmann::json read_json_file(const std::string& path) {
  auto j = nlohmann::json::parse(read_text_file(path), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw format_error(path, "not valid JSON");
  return j;
}

void write_file(const std::string& path, std::span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw format_error(path, std::string("cannot create: ") + std::strerror(errno));
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  out.close();
  if (!out) throw format_error(path, "write failed");
}

void write_text_file(const std::string& path, const std::string& text) {
  write_file(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

}  // namespace cuzk::cli
