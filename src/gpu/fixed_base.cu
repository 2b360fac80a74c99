// Fixed-base batch multiplication (fixed_base.hpp). The table (768 KiB for
// G1, 1.5 MiB for G2) stays in L2 across the whole batch, so each thread's 32
// gathers are L2 hits; the work is the mixed additions (8M + 2S each) and
// one inversion per point (mont_d::inverse: the binary GCD).
#include <stdexcept>
#include <string>

#include "gpu/device_buffer.cuh"
#include "gpu/fixed_base.hpp"
#include "gpu/fp2_d.cuh"
#include "gpu/fp_d.cuh"
#include "gpu/stream.cuh"
#include "gpu/xyzz_d.cuh"

namespace cuzk::gpu {
namespace {

template <class C>
struct fixed_base_field;
template <>
struct fixed_base_field<ec::g1_curve> {
  using type = fp_d;
};
template <>
struct fixed_base_field<ec::g2_curve> {
  using type = fp2_d;
};

template <class F>
__global__ void fixed_base_kernel(const affine_d<F>* __restrict__ table, const ff::limbs_t<4>* __restrict__ scalars,
                                  affine_d<F>* __restrict__ out, size_t n) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const ff::limbs_t<4> k = scalars[i];
  xyzz_d<F> acc = xyzz_d<F>::inf();
  for (uint32_t w = 0; w < fixed_base_windows; ++w) {
    const uint32_t d = uint32_t(k[w / 8] >> (8 * (w % 8))) & 0xff;
    if (d) acc.add_mixed(table[w * fixed_base_digits + d], false);
  }
  out[i] = acc.to_affine();
}

// Scalars per launch: bounds device memory (G2: 224 bytes per scalar in and out).
constexpr size_t chunk = size_t(1) << 22;

}  // namespace

template <class C>
void fixed_base_mul(std::span<const ec::affine_t<C>> table, std::span<const ff::limbs_t<4>> scalars,
                    std::span<ec::affine_t<C>> out) {
  using F = typename fixed_base_field<C>::type;
  static_assert(sizeof(affine_d<F>) == sizeof(ec::affine_t<C>));
  if (table.size() != fixed_base_windows * fixed_base_digits)
    throw std::invalid_argument("gpu fixed_base_mul: table has " + std::to_string(table.size()) + " points, needs " +
                                std::to_string(fixed_base_windows * fixed_base_digits));
  if (out.size() != scalars.size())
    throw std::invalid_argument("gpu fixed_base_mul: " + std::to_string(scalars.size()) + " scalars but " +
                                std::to_string(out.size()) + " outputs");
  if (scalars.empty()) return;
  stream_t s;
  device_buffer<affine_d<F>> t(table.size());
  t.upload(table, s);
  const size_t m = std::min(chunk, scalars.size());
  device_buffer<ff::limbs_t<4>> k(m);
  device_buffer<affine_d<F>> r(m);
  for (size_t at = 0; at < scalars.size(); at += m) {
    const size_t len = std::min(m, scalars.size() - at);
    k.upload(scalars.subspan(at, len), s);
    const unsigned threads = 128;
    fixed_base_kernel<F><<<unsigned((len + threads - 1) / threads), threads, 0, s>>>(t.data(), k.data(), r.data(), len);
    CUDA_LAUNCH_OK();
    r.download(out.subspan(at, len), s);
  }
  s.sync();
}

template void fixed_base_mul<ec::g1_curve>(std::span<const ec::affine_t<ec::g1_curve>>, std::span<const ff::limbs_t<4>>,
                                           std::span<ec::affine_t<ec::g1_curve>>);
template void fixed_base_mul<ec::g2_curve>(std::span<const ec::affine_t<ec::g2_curve>>, std::span<const ff::limbs_t<4>>,
                                           std::span<ec::affine_t<ec::g2_curve>>);

}  // namespace cuzk::gpu
