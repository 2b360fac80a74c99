#pragma once
// Filecoin's registered seal proofs: the numbers filecoin-ffi and Curio send,
// the names the proofs API serializes, and what each fixes for the PoRep
// model (rust-filecoin-proofs-api src/registry.rs; FILECOIN_FORMATS.md §2).
// Ids: 0..4 V1 (2KiB, 8MiB, 512MiB, 32GiB, 64GiB), 5..9 V1_1, 10..14
// V1_1_Feat_SyntheticPoRep, 15..19 V1_2_Feat_NonInteractivePoRep.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "porep/sector_params_t.hpp"

namespace cuzk::filecoin {

enum class seal_version_t : std::uint8_t { v1, v1_1, v1_1_synthetic, v1_2_non_interactive };

struct registered_seal_proof_t {
  std::uint64_t id = 0;              // the enum's number (FFI, porep_id)
  std::uint64_t sector_bytes = 0;
  seal_version_t version = seal_version_t::v1_1;

  // "StackedDrg32GiBV1_1", as RegisteredSealProof serializes.
  std::string name() const;
  // "StackedDrg32GiBV1": the VanillaSealProof variant every version of a size uses.
  std::string vanilla_variant() const;
  porep::api_version_t api_version() const;  // V1: 1.0; V1_1 and synthetic: 1.1; NI: 1.2
  porep::porep_feature_t feature() const;
  // The model's parameters. Throws std::invalid_argument for NonInteractivePoRep,
  // which this build refuses (another circuit shape).
  porep::sector_params_t sector_params() const;
};

// All 20, in id order.
std::span<const registered_seal_proof_t> registered_seal_proofs();
// Throws std::invalid_argument naming the id (and the valid range).
const registered_seal_proof_t& seal_proof_by_id(std::uint64_t id);
// Throws std::invalid_argument naming the string.
const registered_seal_proof_t& seal_proof_by_name(std::string_view name);
// "" -> nullopt; a number 0..19 or a name ("StackedDrg32GiBV1_1") -> its id.
// Throws std::invalid_argument naming the text.
std::optional<std::uint64_t> parse_registered_seal_proof(std::string_view text);
// The proof of this size and version; throws for an unsupported size.
const registered_seal_proof_t& seal_proof_for(std::uint64_t sector_bytes, seal_version_t version);

// "1KiB"-style names of the five sizes: "2KiB", "8MiB", "512MiB", "32GiB", "64GiB".
std::string sector_size_name(std::uint64_t sector_bytes);

// prover_id from a miner's actor id: unsigned LEB128, left-aligned in 32 zero
// bytes (miner 1000 -> e8 07 00 ...), as filecoin-ffi's to_prover_id does.
porep::bytes32_t prover_id_from_miner(std::uint64_t miner_id);

}  // namespace cuzk::filecoin
