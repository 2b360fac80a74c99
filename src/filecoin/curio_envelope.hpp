#pragma once
// Curio's wrapping of a C1 output (curio lib/ffi/cuzk_funcs.go wrapC1Output;
// lotus-bench's Commit2In): {"SectorNum": u64, "Phase1Out": base64 of the
// SealCommitPhase1Output JSON, "SectorSize": u64} (Go marshals []byte as
// standard base64 with padding). FILECOIN_FORMATS.md §2.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "porep/vanilla_format_error.hpp"

namespace cuzk::filecoin {

struct curio_envelope_t {
  std::uint64_t sector_num = 0;
  std::uint64_t sector_size = 0;
  std::vector<std::uint8_t> phase1_out;  // the decoded C1 JSON
};

// Throws porep::vanilla_format_error naming the key ("Phase1Out: not base64 at
// character 1234", "SectorSize: missing").
curio_envelope_t read_curio_envelope(std::span<const std::uint8_t> text);
std::string write_curio_envelope(std::uint64_t sector_num, std::uint64_t sector_size, std::span<const std::uint8_t> c1);

// Standard base64 with padding (RFC 4648 §4), as Go's encoding/json writes []byte.
std::string base64_encode(std::span<const std::uint8_t> data);
// Throws std::invalid_argument naming the offset of the first bad character.
std::vector<std::uint8_t> base64_decode(std::string_view text);

// True when `text` (after leading whitespace) looks like an envelope: a JSON
// object whose first key is one of the envelope's.
bool looks_like_curio_envelope(std::span<const std::uint8_t> text);

}  // namespace cuzk::filecoin
