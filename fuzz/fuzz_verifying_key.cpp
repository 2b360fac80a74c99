// parse_verifying_key on arbitrary bytes: an accepted key has only finite
// points and writing it back in the same layout gives exactly the input.
#include "fuzz_common.hpp"
#include "fuzz_layout.hpp"
#include "groth16/param_io.hpp"

using namespace cuzk;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::expect_only_format_errors([&] {
    auto vk = groth16::parse_verifying_key({data, size}, "fuzz");
    fuzz::fuzz_require(!vk.ic.empty(), "accepted key has the ONE term");
    std::vector<uint8_t> out;
    fuzz::append_vk(out, vk);
    fuzz::fuzz_require(out.size() == size && std::equal(out.begin(), out.end(), data),
                       "accepted key re-serializes to the input");
  });
}
