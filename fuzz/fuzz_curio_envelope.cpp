// read_curio_envelope and base64_decode on arbitrary bytes. Both may reject
// only with std::invalid_argument (porep::vanilla_format_error is one).
// Invariants: accepted base64 is canonical (encoding what it decodes to gives
// the input back), and an accepted envelope, written again, reads back to the
// same three members.
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/curio_envelope.hpp"
#include "fuzz_common.hpp"

using namespace cuzk;

namespace {

void fuzz_base64(std::string_view text) {
  std::vector<std::uint8_t> raw;
  try {
    raw = filecoin::base64_decode(text);
  } catch (const std::invalid_argument&) {
    return;
  }
  // Like Go's base64.StdEncoding (what Curio marshals with), the decoder
  // ignores the unused low bits of the last character ("QUK=" reads as "AB"),
  // so re-encoding gives the canonical text of the same length and bytes.
  const std::string again = filecoin::base64_encode(raw);
  fuzz::fuzz_require(again.size() == text.size() && filecoin::base64_decode(again) == raw,
                     "base64_decode(base64_encode(base64_decode(x))) == base64_decode(x)");
}

void fuzz_envelope(std::span<const std::uint8_t> bytes) {
  filecoin::curio_envelope_t env;
  try {
    env = filecoin::read_curio_envelope(bytes);
  } catch (const std::invalid_argument&) {
    return;
  }
  const std::string again = filecoin::write_curio_envelope(env.sector_num, env.sector_size, env.phase1_out);
  fuzz::fuzz_require(filecoin::looks_like_curio_envelope(
                         {reinterpret_cast<const std::uint8_t*>(again.data()), again.size()}),
                     "a written envelope is recognised as one");
  filecoin::curio_envelope_t back;
  try {
    back = filecoin::read_curio_envelope({reinterpret_cast<const std::uint8_t*>(again.data()), again.size()});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "re-reading the rewritten envelope failed: %s\n", e.what());
    fuzz::fuzz_require(false, "write_curio_envelope of an accepted envelope re-reads");
  }
  fuzz::fuzz_require(back.sector_num == env.sector_num && back.sector_size == env.sector_size &&
                         back.phase1_out == env.phase1_out,
                     "envelope round trip keeps SectorNum, SectorSize and Phase1Out");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  fuzz_envelope(bytes);
  // The same bytes as base64 text: envelope seeds reach it through mutations
  // that cut an input down to its Phase1Out string.
  fuzz_base64({reinterpret_cast<const char*>(data), size});
  return 0;
}
