// read_post_sector_bincode on arbitrary bytes, as each of the 15 registered
// PoSt proofs (a blob of the wrong shape is refused at its first count, so
// trying them all costs little). The reader may reject only with
// std::invalid_argument (porep::vanilla_format_error is one). An accepted
// blob has exactly one encoding, so writing what was read must give back the
// input byte for byte; and the checker must run on it without throwing.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "filecoin/post_bincode.hpp"
#include "fuzz_common.hpp"
#include "porep/post_vanilla.hpp"

using namespace cuzk;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const std::uint8_t> in(data, size);
  for (const auto& rp : filecoin::registered_post_proofs()) {
    porep::post_sector_proof_t s;
    try {
      s = filecoin::read_post_sector_bincode(in, rp);
    } catch (const std::invalid_argument&) {
      continue;
    }
    std::string back;
    try {
      back = filecoin::write_post_sector_bincode(s, rp);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "writing an accepted blob failed: %s\n", e.what());
      fuzz::fuzz_require(false, "write_post_sector_bincode takes what read_post_sector_bincode accepts");
    }
    fuzz::fuzz_require(back.size() == size && std::equal(back.begin(), back.end(), reinterpret_cast<const char*>(data)),
                       "an accepted blob round-trips byte for byte");
    porep::bytes32_t randomness{};
    randomness[0] = 1;
    (void)porep::check_post_sector(rp.shape(), rp.api_version, randomness, 0, s, "sector");
  }
  return 0;
}
