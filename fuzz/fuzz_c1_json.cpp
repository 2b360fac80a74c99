// read_porep_input on arbitrary bytes: the dispatch and all four formats it
// reads (Curio's envelope, filecoin-ffi's C1 JSON, cuzk's vanilla JSON,
// supra_seal's bincode C1). The
// parsers may reject only with std::invalid_argument (porep::vanilla_format_error
// is one). An accepted input must round-trip: what we would write for it reads
// back to the same vanilla proof, or a proof we accept could not be handed on.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "filecoin/c1_bincode.hpp"
#include "filecoin/c1_json.hpp"
#include "filecoin/porep_input.hpp"
#include "fuzz_common.hpp"
#include "porep/vanilla_json.hpp"

using namespace cuzk;

namespace {

// The rewrite is our own output, so a rejection of it is a broken invariant,
// not a documented error; it must not reach the outer catch.
template <class F>
auto must_reread(const char* what, F&& read) {
  try {
    return read();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "re-reading the rewrite failed: %s\n", e.what());
    fuzz::fuzz_require(false, what);
    throw;  // not reached: fuzz_require aborts
  }
}

void check_c1_round_trip(const filecoin::c1_output_t& c1) {
  const std::string text = filecoin::write_c1_json(c1);
  const auto back = must_reread("write_c1_json of an accepted C1 re-reads", [&] {
    return filecoin::read_c1_json({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
  });
  fuzz::fuzz_require(back.proof.id == c1.proof.id, "C1 round trip keeps the registered proof");
  fuzz::fuzz_require(back.ticket == c1.ticket, "C1 round trip keeps the ticket");
  fuzz::fuzz_require(porep::vanilla_to_json(back.vanilla) == porep::vanilla_to_json(c1.vanilla),
                     "C1 round trip keeps the vanilla proof");
}

void check_bincode_round_trip(const filecoin::c1_output_t& c1) {
  const std::string bin = filecoin::write_c1_bincode(c1);
  const auto back = must_reread("write_c1_bincode of an accepted C1 re-reads", [&] {
    return filecoin::read_c1_bincode({reinterpret_cast<const std::uint8_t*>(bin.data()), bin.size()}, c1.proof);
  });
  fuzz::fuzz_require(porep::vanilla_to_json(back.vanilla) == porep::vanilla_to_json(c1.vanilla),
                     "bincode round trip keeps the vanilla proof");
}

void check_vanilla_round_trip(const porep::vanilla_proof_t& v) {
  const nlohmann::json j = porep::vanilla_to_json(v);
  const auto back = must_reread("vanilla_to_json of an accepted vanilla re-reads",
                                [&] { return porep::vanilla_from_json(j); });
  fuzz::fuzz_require(porep::vanilla_to_json(back) == j, "cuzk vanilla round trip keeps the proof");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  filecoin::porep_input_t in;
  try {
    // Bytes that are not JSON are read as a bincode C1 of a 2 KiB V1_1 sector (id 5).
    in = filecoin::read_porep_input({data, size}, 5);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (in.c1) {
    fuzz::fuzz_require(in.format != filecoin::porep_input_format_t::cuzk_vanilla, "only the C1 formats carry a C1");
    check_c1_round_trip(*in.c1);
    check_bincode_round_trip(*in.c1);
  } else {
    fuzz::fuzz_require(in.format == filecoin::porep_input_format_t::cuzk_vanilla, "the C1 formats carry a C1");
    check_vanilla_round_trip(in.vanilla);
  }
  return 0;
}
