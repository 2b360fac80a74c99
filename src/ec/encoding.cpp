#include "ec/encoding.hpp"

#include <algorithm>

#include "ec/subgroup.hpp"

namespace cuzk::ec {
namespace {

constexpr uint8_t flag_compressed = 0x80, flag_infinity = 0x40, flag_sort = 0x20;

// Field element codecs in the Zcash layout.
void put(const fp_t& v, std::span<uint8_t> out) { v.to_bytes_be(out); }
void put(const fp2_t& v, std::span<uint8_t> out) {
  v.c1.to_bytes_be(out.subspan(0, 48));
  v.c0.to_bytes_be(out.subspan(48, 48));
}
bool get(std::span<const uint8_t> in, fp_t& v) {
  auto r = fp_t::from_bytes_be(in);
  if (r) v = *r;
  return r.has_value();
}
bool get(std::span<const uint8_t> in, fp2_t& v) {
  return get(in.subspan(0, 48), v.c1) && get(in.subspan(48, 48), v.c0);
}

template <class C, size_t N>
std::array<uint8_t, N> encode(const affine_t<C>& p, bool compressed) {
  using F = typename C::field_t;
  constexpr size_t fsz = sizeof(F) / sizeof(fp_t) * 48;
  std::array<uint8_t, N> out{};
  if (p.is_inf()) {
    out[0] = flag_infinity | (compressed ? flag_compressed : 0);
    return out;
  }
  put(p.x, std::span<uint8_t>(out).subspan(0, fsz));
  if (compressed) {
    out[0] |= flag_compressed | (p.y.is_lexicographically_largest() ? flag_sort : 0);
  } else {
    put(p.y, std::span<uint8_t>(out).subspan(fsz, fsz));
  }
  return out;
}

template <class C>
point_error decode_point(std::span<const uint8_t> in, affine_t<C>& out, subgroup_check chk) {
  using F = typename C::field_t;
  constexpr size_t fsz = sizeof(F) / sizeof(fp_t) * 48;
  if (in.size() != fsz && in.size() != 2 * fsz) return point_error::wrong_length;
  const bool compressed = in.size() == fsz;
  const uint8_t flags = in[0] & 0xe0;
  if (bool(flags & flag_compressed) != compressed) return point_error::bad_flags;
  std::array<uint8_t, 2 * fsz> buf{};
  std::copy(in.begin(), in.end(), buf.begin());
  buf[0] &= 0x1f;
  auto body = std::span<const uint8_t>(buf).first(in.size());

  if (flags & flag_infinity) {
    if (flags & flag_sort) return point_error::bad_flags;
    if (!std::all_of(body.begin(), body.end(), [](uint8_t b) { return b == 0; }))
      return point_error::coordinate_not_canonical;
    out = affine_t<C>::infinity();
    return point_error::none;
  }
  affine_t<C> p;
  if (!get(body.subspan(0, fsz), p.x)) return point_error::coordinate_not_canonical;
  if (compressed) {
    auto y = (p.x.sqr() * p.x + C::b()).sqrt();
    if (!y) return point_error::not_on_curve;
    p.y = (y->is_lexicographically_largest() == bool(flags & flag_sort)) ? *y : -*y;
  } else {
    if (flags & flag_sort) return point_error::bad_flags;
    if (!get(body.subspan(fsz, fsz), p.y)) return point_error::coordinate_not_canonical;
    // (0, 0) is our in-memory infinity but is off the curve as an encoding.
    if (p.is_inf() || !p.is_on_curve()) return point_error::not_on_curve;
  }
  if (chk == subgroup_check::check && !in_subgroup(p)) return point_error::not_in_subgroup;
  out = p;
  return point_error::none;
}

}  // namespace

const char* describe(point_error e) {
  switch (e) {
    case point_error::none: return "ok";
    case point_error::wrong_length: return "wrong encoding length";
    case point_error::bad_flags: return "invalid flag bits";
    case point_error::coordinate_not_canonical: return "coordinate not canonical (>= p) or non-zero infinity";
    case point_error::not_on_curve: return "point not on the curve";
    case point_error::not_in_subgroup: return "point not in the prime-order subgroup";
    case point_error::infinity: return "point at infinity not allowed here";
  }
  return "unknown point error";
}

std::array<uint8_t, g1_compressed_size> compress(const g1_affine_t& p) { return encode<g1_curve, 48>(p, true); }
std::array<uint8_t, g1_uncompressed_size> serialize(const g1_affine_t& p) { return encode<g1_curve, 96>(p, false); }
std::array<uint8_t, g2_compressed_size> compress(const g2_affine_t& p) { return encode<g2_curve, 96>(p, true); }
std::array<uint8_t, g2_uncompressed_size> serialize(const g2_affine_t& p) { return encode<g2_curve, 192>(p, false); }

point_error decode(std::span<const uint8_t> bytes, g1_affine_t& out, subgroup_check chk) {
  return decode_point<g1_curve>(bytes, out, chk);
}
point_error decode(std::span<const uint8_t> bytes, g2_affine_t& out, subgroup_check chk) {
  return decode_point<g2_curve>(bytes, out, chk);
}

std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (uint8_t b : bytes) {
    s.push_back(digits[b >> 4]);
    s.push_back(digits[b & 15]);
  }
  return s;
}

bool from_hex(std::string_view hex, std::vector<uint8_t>& out) {
  if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
  if (hex.size() % 2) return false;
  auto nib = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  out.clear();
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = nib(hex[i]), lo = nib(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(uint8_t(hi << 4 | lo));
  }
  return true;
}

}  // namespace cuzk::ec
