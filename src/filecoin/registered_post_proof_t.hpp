#pragma once
// Filecoin's registered PoSt proofs: the numbers filecoin-ffi and Curio send,
// their names, and the partition shape and API version each fixes
// (rust-filecoin-proofs-api src/registry.rs RegisteredPoStProof; filecoin-ffi
// rust/src/proofs/types.rs; FILECOIN_FORMATS.md §3). Ids, in enum order:
//   0..4   StackedDrgWinning{2KiB,8MiB,512MiB,32GiB,64GiB}V1   API 1.0
//   5..9   StackedDrgWindow{…}V1                                API 1.0
//   10..14 StackedDrgWindow{…}V1_1 in filecoin-ffi / Lotus / Curio, which the
//          proofs API serializes as StackedDrgWindow{…}V1_2     API 1.2
// ("WindowPoSt uses V1_2 to fix the grindability issue"; the FFI keeps the
// V1_1 name for Lotus and actors). The API version only picks the challenge
// derivation (porep/post_challenges.hpp): V1 and V1_1/V1_2 of a size share
// one circuit and one parameter file.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "filecoin/parameter_manifest_t.hpp"
#include "porep/api_version_t.hpp"
#include "porep/post_proof_t.hpp"

namespace cuzk::filecoin {

struct registered_post_proof_t {
  std::uint64_t id = 0;  // the enum's number (FFI, Curio's registered_proof)
  std::uint64_t sector_bytes = 0;
  porep::post_kind_t kind = porep::post_kind_t::window;
  porep::api_version_t api_version = porep::api_version_t::v1_0;  // 1.0 or 1.2

  // "StackedDrgWindow32GiBV1_2": as the proofs API (serde) spells it.
  std::string name() const;
  // "StackedDrgWindow32GiBV1_1": as filecoin-ffi, Lotus and Curio spell it.
  std::string ffi_name() const;
  // Sectors per partition, challenges per sector and the sector's Tree R shape.
  porep::post_shape_t shape() const;
  parameter_kind_t parameter_kind() const;
};

// All 15, in id order.
std::span<const registered_post_proof_t> registered_post_proofs();
// Throws std::invalid_argument naming the id (and the valid range).
const registered_post_proof_t& post_proof_by_id(std::uint64_t id);
// Either spelling of ids 10..14. Throws std::invalid_argument naming the string.
const registered_post_proof_t& post_proof_by_name(std::string_view name);
// "" -> nullopt; a number 0..14 or a name -> its id. Throws std::invalid_argument naming the text.
std::optional<std::uint64_t> parse_registered_post_proof(std::string_view text);
// The proof of this kind, size and API version (Winning: 1.0 only; Window:
// 1.0 or 1.2; 1.1 reads as 1.0, which PoSt did not change). Throws
// std::invalid_argument for an unsupported combination.
const registered_post_proof_t& post_proof_for(porep::post_kind_t kind, std::uint64_t sector_bytes,
                                              porep::api_version_t v);

}  // namespace cuzk::filecoin
