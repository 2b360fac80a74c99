#pragma once
// Device-resident GPU MSM timings for benchmarks: 2^log_n bases (the given
// distinct points tiled, so more than the L2 cache holds when there are
// enough of them) and 2^log_n scalars drawn on the GPU (a share of zeros and
// ones like Filecoin witnesses, the rest uniform below 2^254) stay on the
// device; each call times one whole MSM with CUDA events, host
// synchronisation included, no PCIe transfer of inputs. Plain C++ interface.
#include <cstdint>
#include <memory>
#include <span>

#include "ec/curves.hpp"
#include "gpu/msm_config.hpp"

namespace cuzk::gpu {

template <class C>
class msm_timer {
 public:
  msm_timer(std::span<const ec::affine_t<C>> distinct, uint32_t log_n, uint64_t seed, uint32_t zero_pct = 0,
            uint32_t one_pct = 0);
  ~msm_timer();
  msm_timer(const msm_timer&) = delete;
  msm_timer& operator=(const msm_timer&) = delete;

  double msm_ms(const msm_config& cfg = {});
  // G2 only: the same MSM over another Fp2 form, on the same bases and
  // scalars, so one binary compares them (BM_gpu_msm_g2_fp2): products of two
  // Montgomery reductions (fp2_lazy_d) instead of the MSM's three, and/or
  // coordinates below 2p (over fp_lazy_d). Same result; (false, false) is
  // msm_ms. std::invalid_argument for G1.
  double msm_ms_fp2(bool two_reductions, bool below_2p, const msm_config& cfg = {});
  // G1 only: the same MSM over fp_lazy_d (coordinates below 2p, products
  // without their final subtraction), on the same bases and scalars
  // (BM_gpu_msm_g1_lazy). Same result. std::invalid_argument for G2.
  double msm_ms_fp_lazy(const msm_config& cfg = {});
  ec::jacobian_t<C> last_result() const;

  struct impl;

 private:
  std::unique_ptr<impl> impl_;
};

}  // namespace cuzk::gpu
