#include "groth16/gpu_setup.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <future>
#include <memory>

#include "ec/ec.hpp"
#include "gpu/device.hpp"
#include "gpu/fixed_base.hpp"

namespace cuzk::groth16 {
namespace {

// ec::fixed_base_t's table for `base`, rebuilt here because that class keeps
// it private: entry w * 256 + d = d * 2^(8w) * base.
template <class C>
std::vector<ec::affine_t<C>> window_table(const ec::affine_t<C>& base) {
  std::vector<ec::jacobian_t<C>> t(gpu::fixed_base_windows * gpu::fixed_base_digits);
  ec::jacobian_t<C> w = ec::jacobian_t<C>::from_affine(base);
  for (size_t i = 0; i < gpu::fixed_base_windows; ++i) {
    const size_t row = i * gpu::fixed_base_digits;
    t[row] = ec::jacobian_t<C>::infinity();
    for (size_t d = 1; d < gpu::fixed_base_digits; ++d) t[row + d] = t[row + d - 1] + w;
    for (size_t k = 0; k < 8; ++k) w = w.dbl();
  }
  return ec::batch_to_affine(std::span<const ec::jacobian_t<C>>(t));
}

// scalars -> canonical on CPU threads, the additions on the GPU, XYZZ -> affine
// on CPU threads (a batch inversion per 4096 points, as the CPU setup). In
// chunks, so the host's temporaries (XYZZ: 192 bytes per G1 point, 384 per
// G2) stay bounded at 2^27 scalars; the GPU multiplies chunk k + 1 while the
// CPU normalizes chunk k.
template <class C>
std::vector<ec::affine_t<C>> gpu_batch_mul(const std::vector<ec::affine_t<C>>& table, std::span<const fr_t> scalars) {
  constexpr size_t chunk = size_t(1) << 21;
  const size_t n = scalars.size();
  std::vector<ec::affine_t<C>> out(n);
  auto multiply = [&](size_t first) {
    const size_t m = std::min(chunk, n - first);
    std::vector<ff::limbs_t<4>> k(m);
    tbb::parallel_for(tbb::blocked_range<size_t>(0, m, 1 << 14), [&](const auto& r) {
      for (size_t i = r.begin(); i < r.end(); ++i) k[i] = scalars[first + i].to_canonical();
    });
    std::vector<ec::xyzz_t<C>> x(m);
    gpu::fixed_base_mul<C>(table, k, x);
    return x;
  };
  auto normalize = [&](size_t first, const std::vector<ec::xyzz_t<C>>& x) {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, x.size(), 4096), [&](const auto& r) {
      std::vector<ec::jacobian_t<C>> tmp(r.size());
      for (size_t i = r.begin(); i < r.end(); ++i) tmp[i - r.begin()] = x[i].to_jacobian();
      auto aff = ec::batch_to_affine(std::span<const ec::jacobian_t<C>>(tmp));
      std::copy(aff.begin(), aff.end(), out.begin() + std::ptrdiff_t(first + r.begin()));
    });
  };
  if (n == 0) return out;
  const int device = gpu::current_device();
  std::vector<ec::xyzz_t<C>> current = multiply(0);
  for (size_t first = 0; first < n; first += chunk) {
    std::future<std::vector<ec::xyzz_t<C>>> next;
    if (first + chunk < n) {
      next = std::async(std::launch::async, [&, device, f = first + chunk] {
        gpu::set_device(device);
        return multiply(f);
      });
    }
    normalize(first, current);
    if (next.valid()) current = next.get();
  }
  return out;
}

}  // namespace

setup_muls_t gpu_setup_muls() {
  auto t1 = std::make_shared<const std::vector<g1_affine_t>>(window_table(ec::g1_generator()));
  auto t2 = std::make_shared<const std::vector<g2_affine_t>>(window_table(ec::g2_generator()));
  return {[t1](std::span<const fr_t> s) { return gpu_batch_mul(*t1, s); },
          [t2](std::span<const fr_t> s) { return gpu_batch_mul(*t2, s); }};
}

parameters_t generate_parameters_gpu(const circuits::any_circuit& circuit, const toxic_waste_t& tw,
                                     std::vector<std::pair<std::string, double>>* stage_ms) {
  return generate_parameters(circuit, tw, gpu_setup_muls(), stage_ms);
}

}  // namespace cuzk::groth16
