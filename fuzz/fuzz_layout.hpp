#pragma once
// bellperson's parameter layout written into memory, independently of
// param_io's file writer, so the parsers' round trip is checked against a
// second implementation of the format.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "ec/encoding.hpp"
#include "groth16/verifying_key_t.hpp"

namespace cuzk::fuzz {

inline void append_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(uint8_t(v >> s));
}
template <class A>
void append_point(std::vector<uint8_t>& out, const A& p) {
  auto s = ec::serialize(p);
  out.insert(out.end(), s.begin(), s.end());
}
template <class A>
void append_points(std::vector<uint8_t>& out, const std::vector<A>& v) {
  append_u32(out, uint32_t(v.size()));
  for (const auto& p : v) append_point(out, p);
}
inline void append_vk(std::vector<uint8_t>& out, const groth16::verifying_key_t& vk) {
  append_point(out, vk.alpha_g1);
  append_point(out, vk.beta_g1);
  append_point(out, vk.beta_g2);
  append_point(out, vk.gamma_g2);
  append_point(out, vk.delta_g1);
  append_point(out, vk.delta_g2);
  append_points(out, vk.ic);
}

}  // namespace cuzk::fuzz
