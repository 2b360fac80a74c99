#pragma once
// Raised by synthesis: a missing witness value, a malformed name, misuse of a mode.
#include <stdexcept>
#include <string>

namespace cuzk::r1cs {

class synthesis_error : public std::runtime_error {
 public:
  explicit synthesis_error(const std::string& what) : std::runtime_error("synthesis: " + what) {}
};

}  // namespace cuzk::r1cs
