#include "engine/job_id.hpp"

#include <array>
#include <fmt/format.h>

#include "groth16/rng.hpp"

namespace cuzk::engine {

std::string make_job_id() {
  thread_local groth16::os_rng rng;
  std::array<uint8_t, 16> b;
  for (size_t i = 0; i < 16; i += 8) {
    uint64_t v = rng();
    for (size_t j = 0; j < 8; ++j) b[i + j] = uint8_t(v >> (8 * j));
  }
  b[6] = uint8_t((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = uint8_t((b[8] & 0x3f) | 0x80);  // RFC 4122 variant
  std::string s;
  for (size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += fmt::format("{:02x}", b[i]);
  }
  return s;
}

}  // namespace cuzk::engine
