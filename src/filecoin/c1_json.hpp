#pragma once
// The JSON that filecoin-ffi's seal_commit_phase1 returns (serde_json of the
// proofs API's SealCommitPhase1Output; FILECOIN_FORMATS.md §2), read and
// written.
//
// Reading streams the text (json_stream_t: one challenge in memory at a time)
// and checks every value, naming the first bad one by its JSON path, e.g.
// `vanilla_proofs.StackedDrg32GiBV1[3][7].replica_column_proofs.drg_parents[2].column.rows[4]`:
//   shapes (variants, counts, 32-byte values below r); path indices against
//   the node each opening is for; labeling and encoding parents against the
//   parent columns' rows; every root against comm_d / the shared comm_c and
//   comm_r_last; then porep::check_vanilla (paths hash to the roots, labels
//   and encoding recompute, comm_r = Poseidon(comm_c, comm_r_last), challenges
//   equal the derivation from replica_id and seed); then each column's leaf
//   against Poseidon of its rows.
// Errors are porep::vanilla_format_error (element = the JSON path).
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "filecoin/c1_output_t.hpp"
#include "porep/vanilla_format_error.hpp"

namespace cuzk::filecoin {

c1_output_t read_c1_json(std::span<const std::uint8_t> text);

// serde_json's compact form, field order as the Rust structs declare them.
std::string write_c1_json(const c1_output_t& c1);

// A C1 for our model's vanilla proof under registered proof `proof` (its
// params must be the proof's). The ticket is the one replica_id was derived
// with (vanilla.replica_id_inputs), else `ticket`, else 32 zero bytes; a
// `ticket` that contradicts the inputs is refused (std::invalid_argument).
c1_output_t make_c1_output(const registered_seal_proof_t& proof, porep::vanilla_proof_t vanilla,
                           std::optional<porep::bytes32_t> ticket = std::nullopt);

// Maps an element path of porep::check_vanilla ("partitions[3].challenges[7].column.column[4]")
// to the C1's JSON path ("vanilla_proofs.StackedDrg32GiBV1[3][7].replica_column_proofs.c_x.column.rows[4]").
std::string c1_element_path(const std::string& model_path, const registered_seal_proof_t& proof);

}  // namespace cuzk::filecoin
