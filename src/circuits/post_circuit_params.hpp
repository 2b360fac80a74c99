#pragma once
// The fallback PoSt circuit's own geometry: upstream's fallback::PublicParams
// sector_count and challenge_count for a partition shape (filecoin-proofs
// parameters.rs). post_shape_t (porep/post_shape.hpp: post_shape_for) keeps
// the provider's view, Window N sectors x 10 challenges, Winning 1 x 66.
// window_post_setup_params keeps Window's counts; winning_post_setup_params
// sets sector_count = 66 / 1 and challenge_count = 66 / 66, so the Winning
// circuit has 66 sector blocks of one challenge each, every block repeating
// the sector's comm_r check: 132 public inputs, the IC of the official
// 13,636-byte 2 KiB Winning vk.
#include <string>

#include "porep/post_proof_t.hpp"

namespace cuzk::circuits {

struct post_circuit_params_t {
  unsigned sector_count = 0;     // sector blocks in the circuit
  unsigned challenge_count = 0;  // Tree R inclusions per block
};

// Throws std::invalid_argument for a shape without sectors or challenges,
// or a Winning shape whose sector count does not divide its challenges.
post_circuit_params_t post_circuit_params(const porep::post_shape_t& shape);

// "window-post" / "winning-post" (the registry's names).
std::string post_kind_name(porep::post_kind_t kind);

}  // namespace cuzk::circuits
