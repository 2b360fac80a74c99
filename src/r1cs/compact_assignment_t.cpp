#include "r1cs/compact_assignment_t.hpp"

#include <tbb/parallel_for.h>

#include <stdexcept>

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

}  // namespace cuzk::r1cs
