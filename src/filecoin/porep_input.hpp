#pragma once
// What a PoRep C2 request's vanilla_proof bytes may be, told apart by their
// first bytes, and the checks a request adds to them:
//   - Curio's envelope {"SectorNum", "Phase1Out", "SectorSize"} (what Curio sends);
//   - a bare SealCommitPhase1Output JSON (what filecoin-ffi returns);
//   - cuzk's own vanilla JSON (src/porep/vanilla_format.md; tests and benchmarks);
//   - supra_seal's bincode C1 (anything not starting with '{'), which does not
//     name its registered proof: the request's registered_proof does.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "filecoin/c1_output_t.hpp"

namespace cuzk::filecoin {

enum class porep_input_format_t { curio_envelope, c1_json, cuzk_vanilla, c1_bincode };
std::string_view to_string(porep_input_format_t f);

struct porep_input_t {
  porep_input_format_t format = porep_input_format_t::c1_json;
  std::optional<c1_output_t> c1;            // the C1 formats
  porep::vanilla_proof_t vanilla;           // every format: what the circuit proves
  std::optional<std::uint64_t> sector_num;  // the envelope's SectorNum
  std::optional<std::uint64_t> envelope_sector_size;
};

// Reads and checks (every value, as read_c1_json / porep::check_vanilla do).
// Throws porep::vanilla_format_error naming the element; for the envelope the
// element is prefixed "Phase1Out: ".
// A bincode C1 needs `bincode_proof` (the registered seal proof id).
porep_input_t read_porep_input(std::span<const std::uint8_t> bytes,
                               std::optional<std::uint64_t> bincode_proof = std::nullopt);

// What the request says beside the bytes (0 = not given, as proto3 sends it).
struct porep_request_facts_t {
  std::uint64_t sector_size = 0;
  // Checked only when nonzero: proto3 cannot tell 0 (StackedDrg2KiBV1) from unset.
  std::uint64_t registered_proof = 0;
  std::uint64_t miner_id = 0;
  std::uint64_t sector_number = 0;
};

// Sector sizes must agree (request, envelope, C1); when the miner id and a
// sector number (the request's or the envelope's) are known, the C1's
// replica_id must be the one they derive with the C1's ticket and comm_d
// (prover_id = LEB128(miner_id)). Throws std::invalid_argument naming the field.
void check_porep_request(const porep_input_t& in, const porep_request_facts_t& facts);

}  // namespace cuzk::filecoin
