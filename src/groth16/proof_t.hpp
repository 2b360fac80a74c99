#pragma once
// A Groth16 proof (A in G1, B in G2, C in G1); encoded as A || B || C
// compressed, 48 + 96 + 48 = 192 bytes (bellman/bellperson/lotus format).
#include <array>
#include <span>
#include <string>

#include "ec/encoding.hpp"

namespace cuzk::groth16 {

inline constexpr size_t proof_size = 192;

struct proof_t {
  ec::g1_affine_t a;
  ec::g2_affine_t b;
  ec::g1_affine_t c;

  std::array<uint8_t, proof_size> encode() const;
  bool operator==(const proof_t&) const = default;
};

struct proof_decode_result {
  ec::point_error error = ec::point_error::none;
  const char* element = "";  // "A", "B" or "C" when error != none
  bool ok() const { return error == ec::point_error::none; }
  std::string message() const;
};

// Every element must decode, lie on the curve and in the subgroup; bellman
// accepts infinity in a proof, and so do we (a verifier then rejects it).
proof_decode_result decode_proof(std::span<const uint8_t> bytes, proof_t& out);

}  // namespace cuzk::groth16
