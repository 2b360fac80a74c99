#include "r1cs/compact_assignment_t.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

namespace cuzk::r1cs {
namespace {

using ff::fr_t;

// Words per parallel task: 2^16 variables.
constexpr std::size_t words_per_task = 1024;

}  // namespace

compact_assignment_t compact_assignment_t::pack(std::span<const fr_t> values) {
  compact_assignment_t c;
  c.size_ = values.size();
  const std::size_t words = (values.size() + 63) / 64;
  c.wide_bits_.assign(words, 0);
  c.value_bits_.assign(words, 0);
  c.rank_.assign(words, 0);
  const std::size_t tasks = (words + words_per_task - 1) / words_per_task;
  // Pass 1: the bits, and each task's wide count.
  std::vector<std::size_t> task_wide(tasks + 1, 0);
  tbb::parallel_for(std::size_t(0), tasks, [&](std::size_t t) {
    const std::size_t w0 = t * words_per_task, w1 = std::min(words, w0 + words_per_task);
    std::size_t n = 0;
    for (std::size_t w = w0; w < w1; ++w) {
      std::uint64_t wide = 0, bits = 0;
      const std::size_t i0 = w * 64, i1 = std::min(values.size(), i0 + 64);
      for (std::size_t i = i0; i < i1; ++i) {
        const fr_t& v = values[i];
        if (v.is_one()) bits |= std::uint64_t(1) << (i - i0);
        else if (!v.is_zero()) wide |= std::uint64_t(1) << (i - i0);
      }
      c.wide_bits_[w] = wide;
      c.value_bits_[w] = bits;
      c.rank_[w] = n;  // relative to the task's first; made absolute below
      n += std::size_t(__builtin_popcountll(wide));
    }
    task_wide[t + 1] = n;
  });
  for (std::size_t t = 0; t < tasks; ++t) task_wide[t + 1] += task_wide[t];
  c.wide_.resize(task_wide[tasks]);
  // Pass 2: ranks made absolute, wide values copied in order.
  tbb::parallel_for(std::size_t(0), tasks, [&](std::size_t t) {
    const std::size_t w0 = t * words_per_task, w1 = std::min(words, w0 + words_per_task);
    for (std::size_t w = w0; w < w1; ++w) {
      std::size_t k = c.rank_[w] += task_wide[t];
      for (std::uint64_t m = c.wide_bits_[w]; m; m &= m - 1) c.wide_[k++] = values[w * 64 + std::size_t(__builtin_ctzll(m))];
    }
  });
  return c;
}

std::size_t compact_assignment_t::bytes() const {
  return (wide_bits_.size() + value_bits_.size() + rank_.size()) * sizeof(std::uint64_t) + wide_.size() * sizeof(fr_t);
}

void compact_assignment_t::unpack(std::span<fr_t> out) const {
  if (out.size() != size_) throw std::invalid_argument("compact_assignment_t::unpack: output size differs");
  const std::size_t words = wide_bits_.size();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, words, words_per_task), [&](const auto& r) {
    for (std::size_t w = r.begin(); w < r.end(); ++w) {
      std::size_t k = rank_[w];
      const std::size_t i0 = w * 64, i1 = std::min(size_, i0 + 64);
      for (std::size_t i = i0; i < i1; ++i) {
        const std::uint64_t bit = std::uint64_t(1) << (i - i0);
        if (wide_bits_[w] & bit) out[i] = wide_[k++];
        else out[i] = value_bits_[w] & bit ? fr_t::one() : fr_t::zero();
      }
    }
  });
}

fr_vector compact_assignment_t::unpack() const {
  fr_vector out(size_);
  unpack(std::span<fr_t>(out));
  return out;
}

compact_builder_t::compact_builder_t(std::size_t size, std::size_t max_wide) : max_wide_(max_wide) {
  c_.size_ = size;
  const std::size_t words = (size + 63) / 64;
  c_.wide_bits_.assign(words, 0);
  c_.value_bits_.assign(words, 0);
}

void compact_builder_t::or_word(std::size_t w, std::uint64_t wide, std::uint64_t value) {
  if (wide) std::atomic_ref<std::uint64_t>(c_.wide_bits_[w]).fetch_or(wide, std::memory_order_relaxed);
  if (value) std::atomic_ref<std::uint64_t>(c_.value_bits_[w]).fetch_or(value, std::memory_order_relaxed);
}

void compact_builder_t::writer_t::flush(std::size_t next_word) {
  if (word_ != SIZE_MAX) b_.or_word(word_, wide_, value_);
  word_ = next_word;
  wide_ = value_ = 0;
}

void compact_builder_t::writer_t::done() {
  if (next_ > end_ || end_ > b_.c_.size_) {
    throw std::logic_error("compact_builder_t: a writer of [" + std::to_string(begin_) + ", " + std::to_string(end_) +
                           ") pushed up to " + std::to_string(next_) + " of " + std::to_string(b_.c_.size_));
  }
  flush(SIZE_MAX);
  // What doubling growth left over goes now, so the pieces held until
  // finish() are their values' size (a mostly wide circuit, PoSt, holds 4 GiB of them at 32 GiB).
  if (values_.capacity() > values_.size() + values_.size() / 8 + 1024) values_.shrink_to_fit();
  b_.add_piece(begin_, next_, std::move(values_));
  values_ = {};
  begin_ = next_;
}

void compact_builder_t::add_piece(std::size_t begin, std::size_t end, fr_vector&& values) {
  if (begin == end) return;
  std::lock_guard lock(mu_);
  if (values.size() > max_wide_ - wide_) {
    throw std::invalid_argument("the witness has more than " + std::to_string(max_wide_) +
                                " values other than 0 and 1 (variables [" + std::to_string(begin) + ", " +
                                std::to_string(end) + ") bring it to " + std::to_string(wide_ + values.size()) +
                                "): some variable its constraints force to be a bit is not one, so the witness "
                                "does not satisfy the circuit");
  }
  wide_ += values.size();
  pieces_.push_back({begin, end, std::move(values)});
}

compact_assignment_t compact_builder_t::finish() && {
  std::sort(pieces_.begin(), pieces_.end(), [](const piece_t& a, const piece_t& b) { return a.begin < b.begin; });
  std::vector<std::size_t> at(pieces_.size() + 1, 0);
  for (std::size_t k = 0; k < pieces_.size(); ++k) {
    if (k > 0 && pieces_[k].begin < pieces_[k - 1].end) {
      throw std::logic_error("compact_builder_t: ranges [" + std::to_string(pieces_[k - 1].begin) + ", " +
                             std::to_string(pieces_[k - 1].end) + ") and [" + std::to_string(pieces_[k].begin) +
                             ", " + std::to_string(pieces_[k].end) + ") overlap");
    }
    at[k + 1] = at[k] + pieces_[k].values.size();
  }
  compact_assignment_t c = std::move(c_);
  const std::size_t words = c.wide_bits_.size();
  c.rank_.resize(words);
  std::size_t wide = 0;
  for (std::size_t w = 0; w < words; ++w) {
    c.rank_[w] = wide;
    wide += std::size_t(__builtin_popcountll(c.wide_bits_[w]));
  }
  if (wide != at.back()) {
    throw std::logic_error("compact_builder_t: " + std::to_string(wide) + " wide bits set but " +
                           std::to_string(at.back()) + " wide values handed over");
  }
  c.wide_.resize(wide);
  tbb::parallel_for(std::size_t(0), pieces_.size(), [&](std::size_t k) {
    std::copy(pieces_[k].values.begin(), pieces_[k].values.end(), c.wide_.begin() + std::ptrdiff_t(at[k]));
    fr_vector().swap(pieces_[k].values);  // freed as it is copied
  });
  pieces_.clear();
  return c;
}

}  // namespace cuzk::r1cs
