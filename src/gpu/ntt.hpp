#pragma once
// Number-theoretic transforms over Fr on the GPU, host-memory interface: each
// call uploads, transforms and downloads (pageable copies dominate; the
// prover uses the device-resident forms in ntt_device.cuh). Same results, bit
// for bit, as poly::ntt / intt / coset_ntt / coset_intt / compute_h.
// Throws std::invalid_argument on bad sizes, std::runtime_error on CUDA errors
// or when the build has no CUDA.
#include <cstdint>
#include <span>

#include "ff/fr.hpp"
#include "gpu/device_scalars.hpp"
#include "gpu/ntt_config.hpp"

namespace cuzk::gpu {

enum class ntt_dir { forward, inverse };

// Largest supported transform: 2^28 points (8 GiB); indices stay 32-bit.
inline constexpr uint32_t ntt_max_log_n = 28;

// Natural order in and out; data.size() must be 2^log_n, 1 <= log_n <= 28.
// forward: coefficients -> evaluations on H; inverse: evaluations -> coefficients (1/n applied).
// coset: the evaluations are on g·H, g = ff::fr_generator.
void ntt(std::span<ff::fr_t> data, uint32_t log_n, ntt_dir dir, bool coset = false, ntt_config cfg = {});

// Builds (once per device and size; later calls return at once) the twiddle
// tables of 2^log_n points on the current device, which the first transform
// of that size would otherwise build: the GPU prover does it when it is made.
void prepare_ntt(uint32_t log_n);

// H(x) = (A·B - C)/Z as poly::compute_h: a, b, c are evaluations on H of
// size n = a.size() (a power of two); on return a holds the n coefficients of
// H (a[n-1] is zero for a satisfied witness). b and c are not modified.
void compute_h(std::span<ff::fr_t> a, std::span<const ff::fr_t> b, std::span<const ff::fr_t> c, ntt_config cfg = {});

// The same H left on the current device for the H MSM (gpu::msm_bases::msm
// over device_scalars): a, b and c go up through pinned staging buffers, and
// each one's transforms start as soon as it has arrived, while the next one
// is still being copied. Nothing comes back over PCIe.
// With `times`, where its time went: the host's until the three uploads
// were queued, and on the GPU (events) from the first upload's start to the
// last one's arrival and to the end of the quotient.
struct compute_h_times {
  double queued_ms = 0;     // host: from the call until the last upload is queued
  double uploaded_ms = 0;   // GPU: first upload starts -> last upload arrived
  double finished_ms = 0;   // GPU: first upload starts -> H done
};
device_scalars compute_h_resident(std::span<const ff::fr_t> a, std::span<const ff::fr_t> b,
                                  std::span<const ff::fr_t> c, ntt_config cfg = {},
                                  compute_h_times* times = nullptr);
// The same from a, b, c already on the current device (gpu::form_rows):
// they are consumed, H is left in a's memory. times: queued_ms is the host's
// time to queue the transforms, uploaded_ms 0.
device_scalars compute_h_resident(device_scalars&& a, device_scalars&& b, device_scalars&& c, ntt_config cfg = {},
                                  compute_h_times* times = nullptr);

}  // namespace cuzk::gpu
