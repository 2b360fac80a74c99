#pragma once
// Loading the @noble/curves known-answer vectors in tests/kat/ (format: tests/kat/README.md).
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "ec/ec.hpp"
#include "test_seed.hpp"

namespace cuzk::test {

inline nlohmann::json load_kat(const std::string& name) {
  std::ifstream in(source_path("tests/kat/" + name));
  if (!in) throw std::runtime_error("missing KAT file tests/kat/" + name);
  return nlohmann::json::parse(in);
}

template <class F>
F kat_field(const nlohmann::json& j) {
  auto v = F::from_hex(j.get<std::string>());
  if (!v) throw std::runtime_error("bad KAT field element " + j.dump());
  return *v;
}

inline ec::fp2_t kat_fp2(const nlohmann::json& j) {
  return {kat_field<ec::fp_t>(j["c0"]), kat_field<ec::fp_t>(j["c1"])};
}

// Any-width big-endian hex to little-endian limbs (scalars may exceed r).
template <size_t N>
ff::limbs_t<N> kat_limbs(const std::string& hex) {
  ff::limbs_t<N> x{};
  size_t nib = 0;
  for (size_t i = hex.size(); i-- > 0; ++nib) {
    char c = hex[i];
    uint64_t d = (c <= '9') ? uint64_t(c - '0') : uint64_t((c | 0x20) - 'a' + 10);
    if (nib < 16 * N) x[nib / 16] |= d << (4 * (nib % 16));
  }
  return x;
}

inline ec::g1_affine_t kat_g1(const nlohmann::json& j) {
  if (j["inf"].get<bool>()) return ec::g1_affine_t::infinity();
  return {kat_field<ec::fp_t>(j["x"]), kat_field<ec::fp_t>(j["y"])};
}
inline ec::g2_affine_t kat_g2(const nlohmann::json& j) {
  if (j["inf"].get<bool>()) return ec::g2_affine_t::infinity();
  return {kat_fp2(j["x"]), kat_fp2(j["y"])};
}

inline std::vector<uint8_t> kat_bytes(const nlohmann::json& j) {
  std::vector<uint8_t> out;
  if (!ec::from_hex(j.get<std::string>(), out)) throw std::runtime_error("bad hex in KAT");
  return out;
}

}  // namespace cuzk::test
