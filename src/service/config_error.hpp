#pragma once
// A configuration file or command-line value that cannot be used. It is an
// invalid_argument so the CLI maps it to exit code 2; the message names the
// file, the key and what is wrong with the value.
#include <stdexcept>
#include <string>

namespace cuzk::service {

class config_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace cuzk::service
