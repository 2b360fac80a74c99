#pragma once
// Filecoin's registered SnapDeals (EmptySectorUpdate) proofs: the numbers
// filecoin-ffi and Curio send as registered_proof, and their names
// (rust-filecoin-proofs-api src/registry.rs RegisteredUpdateProof, an
// append-only enum; FILECOIN_FORMATS.md §4). Ids, in enum order:
//   0..4   StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1
// The proofs API runs every one at API version 1.1 ("StackedDrg*V1 maps to
// api version V1_1"); the version enters neither the circuit nor the
// parameter file, so a size fixes both. The names are the V1 seal proofs'
// spellings, but the numbers are their own.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "filecoin/parameter_manifest_t.hpp"
#include "porep/snap_shape.hpp"

namespace cuzk::filecoin {

struct registered_update_proof_t {
  std::uint64_t id = 0;  // the enum's number (FFI, Curio's registered_proof)
  std::uint64_t sector_bytes = 0;

  // "StackedDrg32GiBV1": as the proofs API (serde) and filecoin-ffi spell it.
  std::string name() const;
  // Partitions, challenges, apex leaves and the Tree R shape of the size.
  porep::snap_shape_t shape() const;
  parameter_kind_t parameter_kind() const { return parameter_kind_t::snap_deals; }
};

// All 5, in id order.
std::span<const registered_update_proof_t> registered_update_proofs();
// Throws std::invalid_argument naming the id (and the valid range).
const registered_update_proof_t& update_proof_by_id(std::uint64_t id);
// Throws std::invalid_argument naming the string.
const registered_update_proof_t& update_proof_by_name(std::string_view name);
// "" -> nullopt; a number 0..4 or a name -> its id. Throws std::invalid_argument naming the text.
std::optional<std::uint64_t> parse_registered_update_proof(std::string_view text);

}  // namespace cuzk::filecoin
