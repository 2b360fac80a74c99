// compact_by_bits: a byte flag per value from the bitmap, then CUB's
// DeviceSelect::Flagged, which keeps the order.
#include <cub/device/device_select.cuh>

#include <bit>
#include <stdexcept>
#include <string>

#include "gpu/cuda_check.cuh"
#include "gpu/device_scalars.cuh"
#include "gpu/staging.cuh"
#include "gpu/stream.cuh"
#include "gpu/stream_buffer.cuh"

namespace cuzk::gpu {

namespace {

__global__ void bits_to_flags(const uint64_t* __restrict__ words, size_t n, uint8_t* __restrict__ flags) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = uint8_t((words[i / 64] >> (i % 64)) & 1);
}

}  // namespace

device_scalars compact_by_bits(const device_scalars& values, std::span<const uint64_t> words, size_t count) {
  const size_t n = values.size();
  if (words.size() != (n + 63) / 64)
    throw std::invalid_argument("gpu::compact_by_bits: " + std::to_string(words.size()) + " bitmap words for " +
                                std::to_string(n) + " values");
  // Counted here first: the selection must never write past `count`.
  size_t set = 0;
  for (const uint64_t w : words) set += size_t(std::popcount(w));
  if (set != count || (n % 64 != 0 && !words.empty() && (words.back() >> (n % 64)) != 0))
    throw std::invalid_argument("gpu::compact_by_bits: the bitmap selects " + std::to_string(set) + " of " +
                                std::to_string(n) + " values (bits past the end included), not " +
                                std::to_string(count));
  stream_t s;
  auto out = std::make_unique<device_scalars::impl>(count, s.get());
  if (n == 0) return device_scalars(std::move(out));
  stream_buffer<uint64_t> d_words(words.size(), s), selected(1, s);
  upload_staged(d_words.data, words.data(), words.size_bytes(), s);  // pinned: no driver staging of pageable memory
  stream_buffer<uint8_t> flags(n, s);
  bits_to_flags<<<unsigned((n + 255) / 256), 256, 0, s>>>(d_words.data, n, flags.data);
  CUDA_LAUNCH_OK();
  size_t tb = 0;
  CUDA_OK(cub::DeviceSelect::Flagged(nullptr, tb, values.get().data, flags.data, out->data, selected.data, n, s));
  stream_buffer<uint8_t> temp(tb, s);
  CUDA_OK(cub::DeviceSelect::Flagged(temp.data, tb, values.get().data, flags.data, out->data, selected.data, n, s));
  s.sync();
  return device_scalars(std::move(out));
}

}  // namespace cuzk::gpu
