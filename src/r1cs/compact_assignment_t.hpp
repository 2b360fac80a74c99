#pragma once
// An assignment with its 0/1 values as bits (issue 18, "compact witness"):
// per variable one bit "wide" (a value other than 0 and 1) and one bit for
// the value when it is not; the wide values follow densely in variable
// order, with the count of wide values before every 64-variable word, so
// any value is found by one popcount. Which values are bits is read from
// the values themselves, not from the gadgets, so the packing is exact for
// any circuit: a variable that happens to be 0 or 1 packs too.
// Bytes: 3 bits per variable (the rank words included) + 32 per wide value.
// A 32 GiB PoRep partition's 130 M aux are mostly SHA-256 bits.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/uninit_allocator.hpp"

namespace cuzk::r1cs {

class compact_assignment_t {
 public:
  compact_assignment_t() = default;

  // Packs `values` (Montgomery fr_t, as synthesis writes them), in parallel.
  static compact_assignment_t pack(std::span<const ff::fr_t> values);

  std::size_t size() const { return size_; }
  // Values other than 0 and 1.
  std::size_t wide_count() const { return wide_.size(); }
  std::size_t bytes() const;

  bool is_wide(std::size_t i) const { return (wide_bits_[i / 64] >> (i % 64)) & 1; }
  // Value i (i < size()).
  ff::fr_t operator[](std::size_t i) const {
    if (!is_wide(i)) return (value_bits_[i / 64] >> (i % 64)) & 1 ? ff::fr_t::one() : ff::fr_t::zero();
    const std::uint64_t below = wide_bits_[i / 64] & ((std::uint64_t(1) << (i % 64)) - 1);
    return wide_[rank_[i / 64] + std::size_t(__builtin_popcountll(below))];
  }
  // Every value into out (out.size() == size()), in parallel.
  void unpack(std::span<ff::fr_t> out) const;
  fr_vector unpack() const;

  // The packed form, word by word (what a device copy uploads): bit i % 64
  // of word i / 64; rank()[w] = wide values before word w.
  std::span<const std::uint64_t> wide_bits() const { return wide_bits_; }
  std::span<const std::uint64_t> value_bits() const { return value_bits_; }
  std::span<const std::uint64_t> rank() const { return rank_; }
  std::span<const ff::fr_t> wide_values() const { return wide_; }

 private:
  std::size_t size_ = 0;
  std::vector<std::uint64_t> wide_bits_, value_bits_, rank_;
  fr_vector wide_;
};

}  // namespace cuzk::r1cs
