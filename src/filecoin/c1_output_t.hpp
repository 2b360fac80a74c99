#pragma once
// A sector's C1 output (proofs-api SealCommitPhase1Output; FILECOIN_FORMATS.md
// §2) as cuzk holds it: the registered proof, the ticket, and the vanilla
// proofs in the model the stacked circuit consumes (porep::vanilla_proof_t,
// with comm_c and comm_r_last taken from the openings' roots). The C1's
// redundant fields (roots, leaves, indices, labeling and encoding parents) are
// checked when it is read and rebuilt when it is written, so they are not kept.
#include "filecoin/registered_seal_proof_t.hpp"
#include "porep/vanilla_proof_t.hpp"

namespace cuzk::filecoin {

struct c1_output_t {
  registered_seal_proof_t proof;
  porep::vanilla_proof_t vanilla;  // vanilla.params = proof.sector_params()
  porep::bytes32_t ticket{};
};

}  // namespace cuzk::filecoin
