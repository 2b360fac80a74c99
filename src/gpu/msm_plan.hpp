#pragma once
// Shape of one GPU Pippenger run: window width c, number of signed windows,
// buckets per window, and the work split of the accumulation and bucket
// reduction kernels. Plain C++ (no CUDA), shared by the kernels and the
// host-emulated tests.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "ff/fr.hpp"

namespace cuzk::gpu {

struct msm_plan {
  static constexpr uint32_t min_bits = 2, max_bits = 22;

  uint32_t c = 0;        // window width in bits
  uint32_t windows = 0;  // signed windows covering any scalar < r
  uint32_t buckets = 0;  // per window: digit magnitudes 1 .. 2^(c-1)
  size_t chunk = 0;      // sorted entries per accumulation thread
  uint32_t segment = 0;  // buckets per bucket-reduction thread
  uint32_t batch_windows = 0;  // windows whose digit entries are sorted and summed together

  // Same window count as msm::signed_digits_t: the top window of r - 1 plus a
  // carry must stay below 2^(c-1), or one more window takes the carry out.
  static uint32_t windows_for(uint32_t c) {
    uint32_t w = (uint32_t(ff::fr_t::bits) + c - 1) / c;
    const auto& r = ff::fr_t::modulus;  // r - 1 has the same top bits as r (r is odd)
    const uint32_t pos = c * (w - 1);
    uint64_t top = 0;
    if (pos < 256) {
      top = r[pos / 64] >> (pos % 64);
      if (pos % 64 != 0 && pos / 64 + 1 < 4) top |= r[pos / 64 + 1] << (64 - pos % 64);
      top &= (uint64_t(1) << c) - 1;
    }
    if (top + 1 >= (uint64_t(1) << (c - 1))) ++w;
    return w;
  }

  // Bits of a scalar below r that the top window sees (the rest of it is
  // carry); <= 0 when the top window exists only for the carry.
  static int top_window_bits(uint32_t c) { return int(ff::fr_t::bits) - int(c * (windows_for(c) - 1)); }

  // Defaults of make(); msm_config's zeros mean these.
  static constexpr size_t default_threads = size_t(1) << 17;
  static constexpr size_t default_batch_entries = size_t(1) << 28;  // 4 GiB of keys, values and sort buffers
  // Measured on an H200 (stage times, 2^22-2^26 points, c = 20): a bucket
  // costs about 4 entries' time in G1 and about 3 in G2.
  static constexpr double default_bucket_weight = 5.0;

  // m: scalars going through Pippenger (0 and 1 taken out); c_forced: 0 for
  // the cost model; chunk_forced: 0 to spread one batch's entries over about
  // target_threads accumulation threads; batch_entries bounds the digit
  // entries held at once (whole windows, at least one).
  static msm_plan make(size_t m, uint32_t c_forced = 0, size_t chunk_forced = 0,
                       size_t target_threads = default_threads, size_t batch_entries = default_batch_entries,
                       double bucket_weight = default_bucket_weight) {
    msm_plan p;
    if (c_forced != 0) {
      if (c_forced < min_bits || c_forced > max_bits)
        throw std::invalid_argument("gpu msm: window_bits " + std::to_string(c_forced) + " outside [" +
                                    std::to_string(min_bits) + ", " + std::to_string(max_bits) + "]");
      p.c = c_forced;
    } else {
      // Cost in mixed additions: one per entry per window, bucket_weight per
      // bucket (clearing, the running sums' two full additions, the memory
      // they touch); capped at 20 bits so the buckets of the largest runs
      // stay near a gigabyte. Widths whose top window holds only a few bits
      // are skipped: there a handful of buckets take a large share of the
      // entries, and such a run, spread over thousands of chunks, is summed
      // by one thread in the fix-up (on an H200, G1 2^24 at c = 17: 200 ms
      // against 144 at c = 16; G2 2^18 at c = 12: 52 ms against 17 at 13).
      double best = 0;
      for (uint32_t c = min_bits; c <= 20; ++c) {
        if (c >= 8 && top_window_bits(c) < 5) continue;
        double cost = double(windows_for(c)) * (double(m) + bucket_weight * double(uint64_t(1) << (c - 1)));
        if (p.c == 0 || cost < best) best = cost, p.c = c;
      }
    }
    p.windows = windows_for(p.c);
    p.buckets = uint32_t(1) << (p.c - 1);
    p.batch_windows = uint32_t(std::clamp<size_t>(m == 0 ? p.windows : batch_entries / m, 1, p.windows));
    const size_t entries = p.batch_entries(m);
    p.chunk = chunk_forced ? chunk_forced : std::max<size_t>(8, (entries + target_threads - 1) / target_threads);
    const size_t all_buckets = size_t(p.windows) * p.buckets;
    uint32_t seg = 1;
    while (seg < p.buckets && all_buckets / seg > target_threads) seg *= 2;
    p.segment = seg;
    return p;
  }

  // Device scratch an MSM keeps after a run over m scalars none of which is
  // 0 or 1 (the worst case), with bucket points of xyzz_bytes: scalars and
  // their canonical copy, flags and indices, one batch's keys and values with
  // their sorted copies (two windows' at least, msm_plan::sorted_slots), every
  // window's buckets and the chunk sums. CUB's
  // temporary storage (a few MB) is not counted.
  // threads: the accumulation threads aimed for (msm_config::threads; 0 = default_threads);
  // c: the window width (msm_config::window_bits; 0 = the cost model's).
  static size_t scratch_bytes(size_t m, size_t xyzz_bytes, size_t threads = 0, uint32_t c = 0) {
    if (m == 0) return 0;
    if (threads == 0) threads = default_threads;
    const msm_plan p = make(m, c, 0, threads);
    return m * (2 * sizeof(ff::fr_t) + 3 + sizeof(uint32_t)) +
           (p.batch_entries(m) + p.sorted_slots() * m) * 2 * sizeof(uint32_t) +
           (size_t(p.windows) * p.buckets + 3 * p.chunks(m) + 2 * threads) * xyzz_bytes;
  }

  size_t entries(size_t m) const { return size_t(windows) * m; }  // all windows
  // Windows of sorted entries held at once: a batch's, and at least two when
  // the sorts run beside the accumulation (msm_sort::overlapped: one window
  // summed while the next is sorted).
  uint32_t sorted_slots() const { return std::min(std::max<uint32_t>(batch_windows, 2), windows); }
  uint32_t slot_of(uint32_t w) const { return w % sorted_slots(); }
  // Entries per accumulation thread when each window is its own launch
  // (msm_sort::overlapped): the window's m entries over about `threads`
  // threads (0: default_threads), at least 8; chunk_forced when not 0.
  static size_t window_chunk(size_t m, size_t threads, size_t chunk_forced) {
    if (chunk_forced) return chunk_forced;
    if (threads == 0) threads = default_threads;
    return std::max<size_t>(8, (m + threads - 1) / threads);
  }
  uint32_t batches() const { return (windows + batch_windows - 1) / batch_windows; }
  uint32_t batch_first(uint32_t b) const { return b * batch_windows; }
  uint32_t batch_size(uint32_t b) const { return std::min(batch_windows, windows - batch_first(b)); }
  size_t batch_entries(size_t m) const { return size_t(batch_windows) * m; }  // the largest batch
  size_t chunks_of(size_t entries) const { return (entries + chunk - 1) / chunk; }
  size_t chunks(size_t m) const { return chunks_of(batch_entries(m)); }  // the largest batch
  uint32_t segments() const { return buckets / segment; }  // per window
};

}  // namespace cuzk::gpu
