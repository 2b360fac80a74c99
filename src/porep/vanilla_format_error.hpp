#pragma once
// A malformed vanilla-proof file: names the element (as a JSON path, e.g.
// "partitions[3].challenges[7].drg_parents[2].column[5]") and what is wrong.
#include <stdexcept>
#include <string>

namespace cuzk::porep {

class vanilla_format_error : public std::invalid_argument {
 public:
  vanilla_format_error(std::string element, const std::string& what)
      : std::invalid_argument(element + ": " + what), element_(std::move(element)) {}
  const std::string& element() const { return element_; }

 private:
  std::string element_;
};

}  // namespace cuzk::porep
