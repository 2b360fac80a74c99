#pragma once
// Zcash/blst point encodings. Fp is big-endian; Fp2 is c1 then c0. The top three
// bits of the first byte are flags: 0x80 compressed, 0x40 infinity, 0x20 the
// larger of the two y (lexicographic: c1 first for Fp2) in compressed form.
// Sizes: G1 48 compressed / 96 uncompressed; G2 96 / 192.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ec/curves.hpp"

namespace cuzk::ec {

enum class point_error : uint8_t {
  none,
  wrong_length,
  bad_flags,              // compression bit inconsistent with the length, or stray flags
  coordinate_not_canonical,  // a coordinate >= p, or infinity with non-zero bytes
  not_on_curve,           // uncompressed (x, y) off the curve, or no y for compressed x
  not_in_subgroup,
  infinity,               // valid encoding of infinity where a finite point is required
};
const char* describe(point_error e);

enum class subgroup_check : bool { skip = false, check = true };

inline constexpr size_t g1_compressed_size = 48, g1_uncompressed_size = 96;
inline constexpr size_t g2_compressed_size = 96, g2_uncompressed_size = 192;

std::array<uint8_t, g1_compressed_size> compress(const g1_affine_t& p);
std::array<uint8_t, g1_uncompressed_size> serialize(const g1_affine_t& p);
std::array<uint8_t, g2_compressed_size> compress(const g2_affine_t& p);
std::array<uint8_t, g2_uncompressed_size> serialize(const g2_affine_t& p);

// Length selects the form. Infinity decodes successfully (error none); callers
// that forbid it check out.is_inf().
point_error decode(std::span<const uint8_t> bytes, g1_affine_t& out, subgroup_check chk = subgroup_check::check);
point_error decode(std::span<const uint8_t> bytes, g2_affine_t& out, subgroup_check chk = subgroup_check::check);

std::string to_hex(std::span<const uint8_t> bytes);
// Accepts an optional 0x prefix; returns false on odd length or a non-hex digit.
bool from_hex(std::string_view hex, std::vector<uint8_t>& out);

}  // namespace cuzk::ec
