// parse_parameters on arbitrary bytes: an accepted file re-serializes to
// exactly the input (every accepted point encoding is canonical). The layout
// reader (parse_parameter_layout, what loads query by query open first)
// accepts every file the whole parser accepts, with the same counts, vk and
// offsets; a file it refuses, the whole parser refuses too.
#include <optional>

#include "fuzz_common.hpp"
#include "fuzz_layout.hpp"
#include "groth16/param_io.hpp"

using namespace cuzk;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<groth16::parameter_layout_t> layout;
  try {
    layout = groth16::parse_parameter_layout({data, size}, "fuzz");
  } catch (const groth16::format_error&) {
  }
  return fuzz::expect_only_format_errors([&] {
    auto p = groth16::parse_parameters({data, size}, "fuzz");
    fuzz::fuzz_require(p.a.size() >= p.vk.ic.size(), "A covers every input");
    std::vector<uint8_t> out;
    fuzz::append_vk(out, p.vk);
    fuzz::fuzz_require(layout.has_value(), "the layout reader accepts what the whole parser accepts");
    fuzz::fuzz_require(layout->vk == p.vk && layout->sizes == groth16::query_sizes_t::of(p) &&
                           layout->file_bytes == size,
                       "the layout's vk and counts are the whole parser's");
    const std::vector<groth16::g1_affine_t>* g1[4] = {&p.h, &p.l, &p.a, &p.b_g1};
    for (uint32_t q = 0; q < 4; ++q) {
      fuzz::fuzz_require(layout->offset[q] == out.size() + 4, "a G1 query's offset is where its points start");
      fuzz::append_points(out, *g1[q]);
    }
    fuzz::fuzz_require(layout->offset[4] == out.size() + 4, "b_g2's offset is where its points start");
    fuzz::append_points(out, p.b_g2);
    fuzz::fuzz_require(out.size() == size && std::equal(out.begin(), out.end(), data),
                       "accepted parameters re-serialize to the input");
  });
}
