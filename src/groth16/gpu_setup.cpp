#include "groth16/gpu_setup.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <memory>

#include "ec/ec.hpp"
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

// scalars -> canonical on CPU threads, then the additions and the
// normalization on the GPU, straight into `out`. In chunks, so the canonical
// copies stay bounded at 2^27 scalars.
template <class C>
std::vector<ec::affine_t<C>> gpu_batch_mul(const std::vector<ec::affine_t<C>>& table, std::span<const fr_t> scalars) {
  constexpr size_t chunk = size_t(1) << 22;
  const size_t n = scalars.size();
  std::vector<ec::affine_t<C>> out(n);
  std::vector<ff::limbs_t<4>> k(std::min(chunk, n));
  for (size_t first = 0; first < n; first += chunk) {
    const size_t m = std::min(chunk, n - first);
    tbb::parallel_for(tbb::blocked_range<size_t>(0, m, 1 << 14), [&](const auto& r) {
      for (size_t i = r.begin(); i < r.end(); ++i) k[i] = scalars[first + i].to_canonical();
    });
    gpu::fixed_base_mul<C>(table, std::span(k).first(m), std::span(out).subspan(first, m));
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
