#pragma once
// A set of affine bases for GPU MSMs (Groth16 parameters: the same queries
// for every proof), with the scratch memory of the MSM kept between calls.
// Where the bases live is the residency tier (residency.hpp): device =
// uploaded once and reused by every MSM; pinned / pageable = the caller's host
// points (which must then outlive this object), streamed to the GPU by each
// MSM in windows of `window_points`, the upload of one window overlapped with
// the MSM of the previous (two device windows). Plain C++ interface; calls on
// one object are serialized (a mutex), separate objects run concurrently.
//
// msm(scalars, offset) = sum_i scalars[i] · bases[offset + i], equal bit for
// bit (as a group element) to msm::msm on the CPU: scalars 0 are dropped,
// scalars 1 summed directly, the rest go through signed-window Pippenger with
// radix-sorted buckets (see msm_algo.cuh). Bases at infinity are allowed.
// Throws std::invalid_argument on a range outside the set, std::runtime_error
// on CUDA errors or in a build without CUDA.
#include <cstddef>
#include <functional>
#include <memory>
#include <span>

#include "ec/curves.hpp"
#include "ff/fr.hpp"
#include "gpu/device_scalars.hpp"
#include "gpu/msm_config.hpp"
#include "gpu/residency.hpp"

namespace cuzk::gpu {

template <class C>
class msm_bases {
 public:
  // window_points: 0 = default_window_points (streamed tiers only).
  explicit msm_bases(std::span<const ec::affine_t<C>> bases, residency_t tier = residency_t::device,
                     size_t window_points = 0);
  // Device tier, filled in pieces: fill(at, out) writes bases [at, at +
  // out.size()) into a host buffer of at most chunk_points points, which is
  // then uploaded, so the whole set never sits in host memory (parameters
  // read from their file straight onto the device). A throw from fill
  // propagates; the device memory is freed.
  using fill_t = std::function<void(size_t at, std::span<ec::affine_t<C>> out)>;
  msm_bases(size_t count, const fill_t& fill, size_t chunk_points);
  ~msm_bases();
  msm_bases(msm_bases&&) noexcept;
  msm_bases& operator=(msm_bases&&) noexcept;
  msm_bases(const msm_bases&) = delete;
  msm_bases& operator=(const msm_bases&) = delete;

  static constexpr size_t default_window_points = size_t(1) << 24;

  size_t size() const;
  // Scalars from host memory (copied up through pinned staging buffers).
  ec::jacobian_t<C> msm(std::span<const ff::fr_t> scalars, size_t offset = 0, const msm_config& cfg = {}) const;
  // The first `count` of scalars already on this device.
  ec::jacobian_t<C> msm(const device_scalars& scalars, size_t count, size_t offset = 0,
                        const msm_config& cfg = {}) const;

  struct impl;  // defined in msm_impl.cuh
  impl& get() const { return *impl_; }
  explicit msm_bases(std::unique_ptr<impl> p);

 private:
  void check_range(size_t count, size_t offset) const;
  std::unique_ptr<impl> impl_;
};

}  // namespace cuzk::gpu
