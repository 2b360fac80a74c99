#pragma once
// Which variables of a Groth16 query own a base. bellperson's parameter files
// store A and B (G1 and G2) bases only for variables whose polynomial is nonzero
// there, so the prover pairs the k-th set bit's scalar with the k-th base.
// A non-owning view: r1cs's density tracker hands over its words as they are.
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace cuzk::msm {

struct density_view {
  // Bit i of the bitmap is bit i % 64 of words[i / 64]; bits at or past size are ignored.
  std::span<const uint64_t> words;
  size_t size = 0;

  bool get(size_t i) const { return (words[i / 64] >> (i % 64)) & 1; }

  // Number of set bits below size: the number of bases the query stores.
  size_t count() const {
    size_t full = size / 64, n = 0;
    for (size_t i = 0; i < full; ++i) n += size_t(std::popcount(words[i]));
    if (size % 64) n += size_t(std::popcount(words[full] & ((uint64_t(1) << (size % 64)) - 1)));
    return n;
  }

  // Enough words to hold size bits.
  bool well_formed() const { return words.size() >= (size + 63) / 64; }
};

// Packs a std::vector<bool> into the word layout above.
inline std::vector<uint64_t> pack_density(const std::vector<bool>& bits) {
  std::vector<uint64_t> w((bits.size() + 63) / 64);
  for (size_t i = 0; i < bits.size(); ++i) w[i / 64] |= uint64_t(bits[i]) << (i % 64);
  return w;
}

}  // namespace cuzk::msm
