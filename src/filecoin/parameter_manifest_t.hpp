#pragma once
// Filecoin's official Groth16 parameter files: the manifest rust-fil-proofs
// ships (parameters.json: every `v28-…params` / `.vk` name with its sector
// size, IPFS cid and digest), compiled into the binary from
// src/filecoin/parameters.json; the file names of each circuit; and the
// directory they live in (FILECOIN_FORMATS.md §6).
//
// A name is "v28-" + cache_identifier + ".params" / ".vk", where (rust-fil-proofs
// storage-proofs-core parameter_cache.rs, CacheableParameters::cache_identifier)
//   cache_identifier = cache_prefix() + "-" + hex(SHA-256(pub_params.identifier()))
// and the identifier is a Debug-like string of the circuit's public parameters.
// We derive the names the same way (parameter_stem) instead of copying them, so
// a test can check each derivation against the manifest. What enters them:
//   PoRep (stacked/vanilla/params.rs, graph.rs, drgraph.rs): nodes, DRG and
//     expansion degree, hasher, layers, challenges per partition and the tree
//     shape. Not the porep_id, the API version nor the features: V1, V1_1,
//     V1_1_Feat_SyntheticPoRep and V1_2_Feat_NonInteractivePoRep of one size
//     share one file (NI picks 126 partitions at 32/64 GiB, 13 at test sizes,
//     precisely so that ceil(2253/126) = 18 and ceil(26/13) = 2 challenges per
//     partition keep the interactive name: filecoin-proofs constants.rs,
//     get_porep_non_interactive_partitions). Hence one PoRep entry per size in
//     the manifest, and no choice to make.
//   PoSt (storage-proofs-post fallback/vanilla.rs): sector size, challenge
//     count and sector count: Winning = 66 sectors of 1 challenge
//     (filecoin-proofs parameters.rs splits WINNING_POST_CHALLENGE_COUNT 66
//     over WINNING_POST_SECTOR_COUNT 1 that way), Window = 10 challenges for
//     each of WINDOW_POST_SECTOR_COUNT sectors (2 at test sizes, 2349 at
//     32 GiB, 2300 at 64 GiB).
//   SnapDeals (storage-proofs-update vanilla.rs): the sector's nodes; the
//     circuit with TreeD over SHA-256 ("empty-sector-update-…") and its
//     all-Poseidon variant ("empty-sector-update-poseidon-…", 32/64 GiB only).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::filecoin {

enum class parameter_kind_t : std::uint8_t {
  porep,                // stacked PoRep (seal commit, C2)
  winning_post,         // fallback PoSt, 66 sectors x 1 challenge
  window_post,          // fallback PoSt, N sectors x 10 challenges
  snap_deals,           // empty-sector-update (TreeD over SHA-256)
  snap_deals_poseidon,  // empty-sector-update-poseidon (32 GiB and 64 GiB)
};

// "porep", "winning-post", "window-post", "snap-deals", "snap-deals-poseidon".
std::string_view to_string(parameter_kind_t k);

struct manifest_entry_t {
  std::string name;    // file name, e.g. "v28-stacked-…-82a357d2….params"
  std::string cid;     // IPFS cid
  std::string digest;  // first 32 hex characters of the file's BLAKE2b-512
  std::uint64_t sector_size = 0;
};

// A circuit's two files: parameters and verifying key.
struct parameter_files_t {
  std::string params;  // "v28-<stem>.params"
  std::string vk;      // "v28-<stem>.vk"
};

class parameter_manifest_t {
 public:
  // The rust-fil-proofs layout: an object of name -> {cid, digest, sector_size}.
  // Throws std::invalid_argument naming what is wrong.
  static parameter_manifest_t from_json(std::string_view json);
  // The manifest compiled into this binary.
  static const parameter_manifest_t& official();

  // By file name (no directory); null when the name is not in the manifest.
  const manifest_entry_t* find(std::string_view file_name) const;
  // In name order.
  const std::vector<manifest_entry_t>& entries() const { return entries_; }

 private:
  std::vector<manifest_entry_t> entries_;
};

// cache_identifier as rust-fil-proofs derives it, e.g.
// "stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2…".
// Throws std::invalid_argument for a sector size that is not one of the five
// (2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB), and for snap_deals_poseidon below 32 GiB.
std::string parameter_stem(parameter_kind_t kind, std::uint64_t sector_bytes);
// "v28-" + parameter_stem + ".params" / ".vk".
parameter_files_t parameter_files(parameter_kind_t kind, std::uint64_t sector_bytes);
inline parameter_files_t porep_parameter_files(std::uint64_t sector_bytes) {
  return parameter_files(parameter_kind_t::porep, sector_bytes);
}
inline std::string porep_parameter_file(std::uint64_t sector_bytes) {
  return porep_parameter_files(sector_bytes).params;
}

// The PoRep sector size of an engine circuit id ("porep-2k", "porep-8m",
// "porep-512m", "porep-32g", "porep-64g"); nullopt for any other id.
std::optional<std::uint64_t> porep_sector_of_circuit_id(std::string_view circuit_id);

// The PoSt circuit id of a parameter kind and size, as CUZK_API.md's
// PreloadSrs ids spell them: "wpost-2k" .. "wpost-64g" (window_post),
// "winning-2k" .. "winning-64g" (winning_post); the size suffix as
// porep-<size>'s. Throws std::invalid_argument for another kind or size.
std::string post_circuit_id(parameter_kind_t kind, std::uint64_t sector_bytes);

// The SnapDeals circuit id (CUZK_API.md's PreloadSrs "snap-32g"): "snap-2k"
// .. "snap-64g". Throws std::invalid_argument for a size that is not one of the five.
std::string snap_circuit_id(std::uint64_t sector_bytes);

// The official circuit an engine circuit id names (porep-*, wpost-*,
// winning-*, snap-* at the five sizes); nullopt for any other id.
struct official_circuit_t {
  parameter_kind_t kind = parameter_kind_t::porep;
  std::uint64_t sector_bytes = 0;
};
std::optional<official_circuit_t> official_circuit_of_id(std::string_view circuit_id);

// Where Filecoin tools keep the files: $FIL_PROOFS_PARAMETER_CACHE when set and
// not empty, else /var/tmp/filecoin-proof-parameters.
inline constexpr std::string_view default_parameter_cache_dir = "/var/tmp/filecoin-proof-parameters";
std::string default_parameter_cache();

}  // namespace cuzk::filecoin
