// parse_parameters on arbitrary bytes: an accepted file re-serializes to
// exactly the input (every accepted point encoding is canonical).
#include "fuzz_common.hpp"
#include "fuzz_layout.hpp"
#include "groth16/param_io.hpp"

using namespace cuzk;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::expect_only_format_errors([&] {
    auto p = groth16::parse_parameters({data, size}, "fuzz");
    fuzz::fuzz_require(p.a.size() >= p.vk.ic.size(), "A covers every input");
    std::vector<uint8_t> out;
    fuzz::append_vk(out, p.vk);
    fuzz::append_points(out, p.h);
    fuzz::append_points(out, p.l);
    fuzz::append_points(out, p.a);
    fuzz::append_points(out, p.b_g1);
    fuzz::append_points(out, p.b_g2);
    fuzz::fuzz_require(out.size() == size && std::equal(out.begin(), out.end(), data),
                       "accepted parameters re-serialize to the input");
  });
}
