#pragma once
// Fr values resident on the current GPU (Montgomery form, the bytes of
// ff::fr_t), such as H's coefficients left there by compute_h_resident, so an
// MSM can read them without a round trip through host memory. Move-only;
// the device memory is released (stream-ordered) on destruction.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::gpu {

class device_scalars {
 public:
  device_scalars();
  ~device_scalars();
  device_scalars(device_scalars&&) noexcept;
  device_scalars& operator=(device_scalars&&) noexcept;
  device_scalars(const device_scalars&) = delete;
  device_scalars& operator=(const device_scalars&) = delete;

  // A copy of host values on the current device (staged, synchronous).
  static device_scalars upload(std::span<const ff::fr_t> values);

  size_t size() const;
  std::vector<ff::fr_t> to_host() const;  // a copy, for tests

  struct impl;  // gpu/device_scalars.cuh
  impl& get() const { return *impl_; }
  explicit device_scalars(std::unique_ptr<impl> p);

 private:
  std::unique_ptr<impl> impl_;
};

// The values whose bit is set in `words` (little-endian bits, one per value),
// in order, on the same device: the A and B queries' scalars compacted to
// their density without a trip through the host. `count` is the number of
// set bits (the caller's density count); a bitmap that selects another
// number, or of the wrong length, throws std::invalid_argument.
device_scalars compact_by_bits(const device_scalars& values, std::span<const uint64_t> words, size_t count);

}  // namespace cuzk::gpu
