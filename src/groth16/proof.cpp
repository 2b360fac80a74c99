#include <algorithm>

#include "groth16/proof_t.hpp"

namespace cuzk::groth16 {

std::array<uint8_t, proof_size> proof_t::encode() const {
  std::array<uint8_t, proof_size> out{};
  auto ea = ec::compress(a);
  auto eb = ec::compress(b);
  auto ec_ = ec::compress(c);
  std::copy(ea.begin(), ea.end(), out.begin());
  std::copy(eb.begin(), eb.end(), out.begin() + 48);
  std::copy(ec_.begin(), ec_.end(), out.begin() + 144);
  return out;
}

std::string proof_decode_result::message() const {
  if (ok()) return "ok";
  if (error == ec::point_error::wrong_length) return "proof must be 192 bytes";
  return std::string("proof element ") + element + ": " + ec::describe(error);
}

proof_decode_result decode_proof(std::span<const uint8_t> bytes, proof_t& out) {
  if (bytes.size() != proof_size) return {ec::point_error::wrong_length, ""};
  proof_t p;
  if (auto e = ec::decode(bytes.subspan(0, 48), p.a); e != ec::point_error::none) return {e, "A"};
  if (auto e = ec::decode(bytes.subspan(48, 96), p.b); e != ec::point_error::none) return {e, "B"};
  if (auto e = ec::decode(bytes.subspan(144, 48), p.c); e != ec::point_error::none) return {e, "C"};
  out = p;
  return {};
}

}  // namespace cuzk::groth16
