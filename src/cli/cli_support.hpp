#pragma once
// What every `cuzk` command shares: exit codes, error printing, stage timers.
//   0 success / valid proof, 1 proof does not verify, 2 bad input (unreadable or
//   malformed file, wrong argument, usage error), 3 internal failure.
#include <fmt/core.h>

#include <chrono>
#include <cstdio>
#include <string_view>

namespace cuzk::cli {

enum exit_code : int { exit_ok = 0, exit_invalid = 1, exit_bad_input = 2, exit_internal = 3 };

inline int report_error(std::string_view message, exit_code code = exit_bad_input) {
  fmt::print(stderr, "error: {}\n", message);
  return code;
}

// Wall time of one stage; lap() returns the milliseconds since the last lap.
class stopwatch {
 public:
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

inline void print_timing(std::string_view stage, double ms) { fmt::print("  {:<14}{:>10.1f} ms\n", stage, ms); }

}  // namespace cuzk::cli
