#pragma once
// Every random test draws its seed here: CUZK_TEST_SEED fixes it, otherwise a fresh
// one is taken; either way it is printed so a failure can be replayed.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

namespace cuzk::test {

inline uint64_t seed(const std::string& what) {
  uint64_t s;
  if (const char* env = std::getenv("CUZK_TEST_SEED")) {
    s = std::strtoull(env, nullptr, 0);
  } else {
    s = (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  }
  std::cout << "[seed] " << what << " CUZK_TEST_SEED=" << s << std::endl;
  return s;
}

inline std::string source_path(const std::string& rel) { return std::string(CUZK_SOURCE_DIR) + "/" + rel; }

}  // namespace cuzk::test
