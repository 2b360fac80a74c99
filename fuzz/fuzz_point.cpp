// ec::decode for G1 and G2 on inputs of any length, with and without the
// subgroup check. An accepted encoding is canonical (re-encoding in the same
// form gives the input), and the fast subgroup test must agree with
// multiplication by r on every on-curve point the fuzzer reaches.
#include <algorithm>
#include <span>

#include "ec/ec.hpp"
#include "fuzz_common.hpp"

using namespace cuzk;

namespace {

template <class C>
void check_curve(std::span<const uint8_t> in) {
  using A = ec::affine_t<C>;
  constexpr size_t compressed_size = std::is_same_v<C, ec::g1_curve> ? ec::g1_compressed_size : ec::g2_compressed_size;
  A p;
  auto e = ec::decode(in, p, ec::subgroup_check::skip);
  if (e != ec::point_error::none) {
    (void)ec::describe(e);
    A q;
    fuzz::fuzz_require(ec::decode(in, q) == e, "the subgroup check only adds not_in_subgroup");
    return;
  }
  fuzz::fuzz_require(p.is_on_curve(), "decoded point is on the curve");
  bool same = in.size() == compressed_size ? std::ranges::equal(ec::compress(p), in)
                                           : std::ranges::equal(ec::serialize(p), in);
  fuzz::fuzz_require(same, "decoded point re-encodes to the input");
  const bool in_group = ec::in_subgroup_by_order(p);
  fuzz::fuzz_require(ec::in_subgroup(p) == in_group, "fast subgroup check agrees with [r]P = 0");
  A q;
  auto e2 = ec::decode(in, q);
  fuzz::fuzz_require(e2 == (in_group ? ec::point_error::none : ec::point_error::not_in_subgroup),
                     "checked decode reports exactly the subgroup verdict");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::expect_only_format_errors([&] {
    std::span<const uint8_t> in(data, size);
    check_curve<ec::g1_curve>(in);
    check_curve<ec::g2_curve>(in);
  });
}
