#pragma once
// Bitmap of which variables have a nonzero polynomial in a query (A or B),
// after bellman's DensityTracker. The prover's MSM skips bases of clear bits,
// and the parameter file omits those bases, so witness and keygen must agree
// bit for bit (a test checks it on every built-in circuit).
#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace cuzk::r1cs {

class density_tracker {
 public:
  density_tracker() = default;
  // A bitmap built elsewhere: `size` bits in density_tracker's word layout;
  // bits at or past `size` must be clear.
  static density_tracker from_words(std::vector<uint64_t> words, size_t size) {
    if (words.size() != (size + 63) / 64) throw std::invalid_argument("density_tracker: word count does not match size");
    if (size % 64 && (words.back() >> (size % 64))) throw std::invalid_argument("density_tracker: bits set past size");
    density_tracker d;
    for (uint64_t w : words) d.count_ += size_t(std::popcount(w));
    d.words_ = std::move(words);
    d.size_ = size;
    return d;
  }

  void reserve(size_t n) { words_.reserve((n + 63) / 64); }

  void add_element() {
    if (size_ % 64 == 0) words_.push_back(0);
    ++size_;
  }

  void inc(size_t i) {
    uint64_t& w = words_[i / 64];
    uint64_t m = uint64_t(1) << (i % 64);
    count_ += (w & m) == 0;
    w |= m;
  }

  bool get(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  size_t size() const { return size_; }
  // Number of set bits: the count of bases the MSM over this query needs.
  size_t total_density() const { return count_; }
  // Little-endian bit order within each word; bits past size() are zero.
  std::span<const uint64_t> words() const { return words_; }

  bool operator==(const density_tracker&) const = default;

 private:
  std::vector<uint64_t> words_;
  size_t size_ = 0;
  size_t count_ = 0;
};

}  // namespace cuzk::r1cs
