#include "filecoin/curio_envelope.hpp"

#include "filecoin/json_stream_t.hpp"

#include <openssl/evp.h>

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

namespace cuzk::filecoin {

using porep::vanilla_format_error;

namespace {

constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The envelope's three members, taken by SAX so that the ~67 MB base64 string
// is moved out of the lexer, not copied into a DOM.
struct envelope_sax_t : nlohmann::json_sax<nlohmann::json> {
  std::optional<std::uint64_t> sector_num, sector_size;
  std::optional<std::string> phase1_out;
  std::string key_, error;
  int depth = 0;
  bool bad_type = false;

  bool want(const char* k) const { return depth == 1 && key_ == k; }
  // A value of the wrong type for one of the three members (others are ignored).
  bool ours() const { return depth == 1 && (key_ == "SectorNum" || key_ == "SectorSize" || key_ == "Phase1Out"); }
  bool null() override { return !ours() || (bad_type = true, false); }
  bool boolean(bool) override { return !ours() || (bad_type = true, false); }
  bool number_integer(number_integer_t v) override {
    if (v < 0) return !ours() || (bad_type = true, false);
    return number_unsigned(number_unsigned_t(v));
  }
  bool number_unsigned(number_unsigned_t v) override {
    if (want("SectorNum")) sector_num = v;
    else if (want("SectorSize")) sector_size = v;
    else if (depth == 1 && key_ == "Phase1Out") return (bad_type = true, false);
    return true;
  }
  bool number_float(number_float_t, const string_t&) override { return !ours() || (bad_type = true, false); }
  bool string(string_t& v) override {
    if (want("Phase1Out")) phase1_out = std::move(v);
    else if (depth == 1 && (key_ == "SectorNum" || key_ == "SectorSize")) return (bad_type = true, false);
    return true;
  }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    if (depth == 0 || depth > 1) return ++depth, true;
    if (key_ == "SectorNum" || key_ == "SectorSize" || key_ == "Phase1Out") return (bad_type = true, false);
    return ++depth, true;
  }
  bool key(string_t& k) override {
    if (depth == 1) key_ = k;
    return true;
  }
  bool end_object() override { return --depth, true; }
  bool start_array(std::size_t) override {
    if (depth == 0) return (bad_type = true, false);
    if (depth == 1 && (key_ == "SectorNum" || key_ == "SectorSize" || key_ == "Phase1Out"))
      return (bad_type = true, false);
    return ++depth, true;
  }
  bool end_array() override { return --depth, true; }
  bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception& e) override {
    error = "not valid JSON at byte " + std::to_string(pos) + ": " + json_error_text(e);
    return false;
  }
};

}  // namespace

std::string base64_encode(std::span<const std::uint8_t> data) {
  std::string out(4 * ((data.size() + 2) / 3), '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data.data(), int(data.size()));
  out.resize(std::size_t(n));
  return out;
}

std::vector<std::uint8_t> base64_decode(std::string_view text) {
  // Validate first so an error names the offset (OpenSSL only says "bad").
  if (text.size() % 4 != 0)
    throw std::invalid_argument("base64 text of " + std::to_string(text.size()) +
                                " characters is not a multiple of 4 (truncated?)");
  std::size_t pad = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '=' && i + 2 >= text.size() && text.size() - i <= 2) {
      ++pad;
      continue;
    }
    if (pad || alphabet.find(c) == std::string_view::npos)
      throw std::invalid_argument("not base64 at character " + std::to_string(i) + " ('" + std::string(1, c) + "')");
  }
  std::vector<std::uint8_t> out(text.size() / 4 * 3);
  // EVP_DecodeBlock decodes whole quanta and counts padding as zero bytes.
  constexpr std::size_t chunk = std::size_t(1) << 24;  // bounded ints for OpenSSL
  std::size_t written = 0;
  for (std::size_t at = 0; at < text.size(); at += chunk) {
    const std::size_t n = std::min(chunk, text.size() - at);
    const int got = EVP_DecodeBlock(out.data() + written, reinterpret_cast<const unsigned char*>(text.data() + at),
                                    int(n));
    if (got < 0) throw std::invalid_argument("not base64 near character " + std::to_string(at));
    written += std::size_t(got);
  }
  out.resize(written - pad);
  return out;
}

bool looks_like_curio_envelope(std::span<const std::uint8_t> text) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t')) ++i;
  if (i >= text.size() || text[i] != '{') return false;
  ++i;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t')) ++i;
  const std::string_view rest(reinterpret_cast<const char*>(text.data()) + i, text.size() - i);
  return rest.starts_with("\"SectorNum\"") || rest.starts_with("\"Phase1Out\"") || rest.starts_with("\"SectorSize\"");
}

namespace {

// The characters of the top-level "Phase1Out" string, when they can be cut out
// of the text as they are (no escapes: base64 needs none): [begin, end).
std::optional<std::pair<std::size_t, std::size_t>> phase1_out_span(std::string_view t) {
  const auto key = t.find("\"Phase1Out\"");
  if (key == std::string_view::npos) return std::nullopt;
  std::size_t i = key + 11;
  auto skip_ws = [&] {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\n' || t[i] == '\r' || t[i] == '\t')) ++i;
  };
  skip_ws();
  if (i >= t.size() || t[i] != ':') return std::nullopt;
  ++i;
  skip_ws();
  if (i >= t.size() || t[i] != '"') return std::nullopt;
  const std::size_t begin = i + 1;
  const auto end = t.find_first_of("\"\\", begin);
  if (end == std::string_view::npos || t[end] != '"') return std::nullopt;
  return std::pair{begin, end};
}

}  // namespace

curio_envelope_t read_curio_envelope(std::span<const std::uint8_t> text) {
  // The base64 string is ~3/4 of a 32 GiB envelope's bytes: it is decoded
  // where it lies and the rest (a few dozen bytes) goes through the JSON
  // parser with an empty Phase1Out, so parsing holds the text and the decoded
  // C1, not also the lexer's copy of the string.
  const std::string_view t(reinterpret_cast<const char*>(text.data()), text.size());
  const auto span = phase1_out_span(t);
  std::string rest;
  if (span) rest = std::string(t.substr(0, span->first)) + std::string(t.substr(span->second));
  const std::string_view parsed = span ? std::string_view(rest) : t;
  envelope_sax_t sax;
  const bool ok = nlohmann::json::sax_parse(parsed.begin(), parsed.end(), &sax);
  if (!ok) {
    if (sax.bad_type) {
      const char* want = sax.key_ == "Phase1Out" ? "a base64 string" : "a non-negative integer";
      if (sax.depth == 0) throw vanilla_format_error("Curio envelope", "expected a JSON object");
      throw vanilla_format_error(sax.key_, std::string("expected ") + want);
    }
    throw vanilla_format_error("Curio envelope", sax.error.empty() ? "not valid JSON" : sax.error);
  }
  if (!sax.phase1_out) throw vanilla_format_error("Curio envelope", "missing \"Phase1Out\"");
  if (!sax.sector_size) throw vanilla_format_error("Curio envelope", "missing \"SectorSize\"");
  if (!sax.sector_num) throw vanilla_format_error("Curio envelope", "missing \"SectorNum\"");
  curio_envelope_t e;
  e.sector_num = *sax.sector_num;
  e.sector_size = *sax.sector_size;
  try {
    e.phase1_out = base64_decode(span && sax.phase1_out->empty() ? t.substr(span->first, span->second - span->first)
                                                                 : std::string_view(*sax.phase1_out));
  } catch (const std::invalid_argument& ex) {
    throw vanilla_format_error("Phase1Out", ex.what());
  }
  return e;
}

std::string write_curio_envelope(std::uint64_t sector_num, std::uint64_t sector_size,
                                 std::span<const std::uint8_t> c1) {
  // Go's encoding/json writes fields in struct order: SectorNum, Phase1Out, SectorSize.
  return "{\"SectorNum\":" + std::to_string(sector_num) + ",\"Phase1Out\":\"" + base64_encode(c1) +
         "\",\"SectorSize\":" + std::to_string(sector_size) + "}";
}

}  // namespace cuzk::filecoin
