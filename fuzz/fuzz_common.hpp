#pragma once
// Shared by the libFuzzer targets. A parser may reject input only by throwing
// format_error or std::invalid_argument; anything else (another exception, a
// crash, a sanitizer report, a broken invariant checked by fuzz_require) is a bug.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "groth16/format_error.hpp"

namespace cuzk::fuzz {

template <class F>
int expect_only_format_errors(F&& body) {
  try {
    body();
  } catch (const groth16::format_error&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}

// abort() so libFuzzer records the input as a crash.
inline void fuzz_require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
  }
}

}  // namespace cuzk::fuzz
