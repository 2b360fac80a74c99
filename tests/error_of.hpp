#pragma once
// The message of the exception a call throws ("(no error)" when it returns),
// for tests that check what an error names.
#include <exception>
#include <string>

namespace cuzk::test {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace cuzk::test
