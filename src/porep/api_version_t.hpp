#pragma once
// Filecoin proofs API version, as far as it changes the native PoRep model.
// V1_0 ("legacy", registered proof ids 0..4) puts the DRG predecessor last and
// truncates the Feistel output to u32; V1_1 (ids 5..9) does neither
// (FILECOIN_POREP.md §4, §12.6). The circuit is the same for both.
#include <cstdint>
#include <string>
#include <string_view>

namespace cuzk::porep {

enum class api_version_t : std::uint8_t { v1_0, v1_1 };

inline std::string_view to_string(api_version_t v) { return v == api_version_t::v1_0 ? "1.0" : "1.1"; }

// Throws std::invalid_argument for anything but "1.0" / "1.1".
api_version_t parse_api_version(std::string_view s);

}  // namespace cuzk::porep
