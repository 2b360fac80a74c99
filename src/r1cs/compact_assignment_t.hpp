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
#include <mutex>
#include <span>
#include <utility>
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

  bool operator==(const compact_assignment_t&) const = default;

 private:
  friend class compact_builder_t;
  std::size_t size_ = 0;
  std::vector<std::uint64_t> wide_bits_, value_bits_, rank_;
  fr_vector wide_;
};

// Builds a compact_assignment_t while synthesis assigns it, so the
// full-width assignment (32 bytes per variable) never exists: writers over
// disjoint ranges of variables, each writing its range in increasing order,
// run concurrently; their bits go straight into the shared words (a word two
// ranges share is OR-ed atomically) and each range's wide values are kept by
// its writer, then handed over in one piece. finish() orders the pieces and
// counts the ranks. Variables no writer set read as 0.
class compact_builder_t {
 public:
  // max_wide: more values other than 0 and 1 than this are refused
  // (writer_t::done throws std::invalid_argument), so a witness that breaks
  // its circuit's boolean constraints cannot outgrow what was reserved for it.
  explicit compact_builder_t(std::size_t size, std::size_t max_wide = SIZE_MAX);

  // Values [begin, end) in order, from one thread; done() hands them over
  // (a writer dropped without done() leaves its values out).
  class writer_t {
   public:
    writer_t(compact_builder_t& b, std::size_t begin, std::size_t end) : b_(b), begin_(begin), next_(begin), end_(end) {}
    void push(const ff::fr_t& v) {
      const std::size_t w = next_ / 64;
      if (w != word_) flush(w);
      const std::uint64_t bit = std::uint64_t(1) << (next_ % 64);
      if (v.is_one()) value_ |= bit;
      else if (!v.is_zero()) wide_ |= bit, values_.push_back(v);
      ++next_;
    }
    // The values pushed so far (at most end - begin): bits flushed, wide values handed to the builder.
    void done();

   private:
    void flush(std::size_t next_word);
    compact_builder_t& b_;
    std::size_t begin_, next_, end_;
    std::size_t word_ = SIZE_MAX;
    std::uint64_t wide_ = 0, value_ = 0;
    fr_vector values_;
  };

  // Throws std::logic_error when the pieces handed over overlap or their
  // wide values do not match the wide bits set.
  compact_assignment_t finish() &&;

 private:
  void or_word(std::size_t w, std::uint64_t wide, std::uint64_t value);
  void add_piece(std::size_t begin, std::size_t end, fr_vector&& values);

  compact_assignment_t c_;  // bits filled in place; wide_ and rank_ at finish
  std::mutex mu_;
  struct piece_t {
    std::size_t begin, end;
    fr_vector values;
  };
  std::vector<piece_t> pieces_;
  std::size_t wide_ = 0, max_wide_ = SIZE_MAX;
};

}  // namespace cuzk::r1cs
