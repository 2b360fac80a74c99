#pragma once
// A malformed parameter, key, proof or public-input file: the message names
// the file and what is wrong with it; the CLI turns it into exit code 2.
#include <stdexcept>
#include <string>

namespace cuzk::groth16 {

class format_error : public std::runtime_error {
 public:
  format_error(const std::string& file, const std::string& what)
      : std::runtime_error(file + ": " + what), file_(file) {}
  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

}  // namespace cuzk::groth16
