#pragma once
// Filecoin proofs API version and PoRep features, as far as they change the
// native PoRep model (rust-fil-proofs storage-proofs-core api_version.rs).
// V1_0 ("legacy", registered proof ids 0..4) puts the DRG predecessor last and
// truncates the Feistel output to u32; V1_1 and V1_2 do neither
// (FILECOIN_POREP.md §4, §12.6). The features pick how the challenges are
// drawn: interactively from the seed (none), from the synthetic set
// (SyntheticPoRep), or without a seed (NonInteractivePoRep).
#include <cstdint>
#include <string>
#include <string_view>

namespace cuzk::porep {

enum class api_version_t : std::uint8_t { v1_0, v1_1, v1_2 };
enum class porep_feature_t : std::uint8_t { none, synthetic, non_interactive };

// "1.0", "1.1", "1.2".
std::string_view to_string(api_version_t v);
// "", "SyntheticPoRep", "NonInteractivePoRep" (upstream's ApiFeature names).
std::string_view to_string(porep_feature_t f);

// Accepts "1.0" / "1.0.0" / "V1_0_0" (and the same for 1.1, 1.2); throws
// std::invalid_argument naming the value otherwise.
api_version_t parse_api_version(std::string_view s);
// Accepts "" / "none" / "SyntheticPoRep" / "NonInteractivePoRep"; throws otherwise.
porep_feature_t parse_porep_feature(std::string_view s);

}  // namespace cuzk::porep
