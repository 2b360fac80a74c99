// decode_proof on arbitrary bytes: an accepted proof is canonical, so encoding
// it again must give back exactly the input.
#include <algorithm>

#include "fuzz_common.hpp"
#include "groth16/proof_t.hpp"

using namespace cuzk;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::expect_only_format_errors([&] {
    groth16::proof_t p;
    auto r = groth16::decode_proof({data, size}, p);
    (void)r.message();
    if (!r.ok()) return;
    auto enc = p.encode();
    fuzz::fuzz_require(std::equal(enc.begin(), enc.end(), data, data + size), "decoded proof re-encodes to the input");
  });
}
