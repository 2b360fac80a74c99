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

  // One MSM over the field form the prover's MSM uses (field_of in msm_impl.cuh).
  double msm_ms(const msm_config& cfg = {});
  // The same MSM over a chosen field form, on the same bases and scalars, so
  // one binary compares the forms (BM_gpu_msm_g2_fp2, BM_gpu_msm_g1_lazy);
  // every form gives the same result.
  // G2: one of the Fp2 products (fp2_product in msm_config.hpp) over Fp
  // values below p, or below 2p (fp_lazy_d; not with the fused difference).
  // std::invalid_argument for G1 and for a form that does not exist.
  double msm_ms_fp2(fp2_product product, bool below_2p, const msm_config& cfg = {});
  // G1 over one of the Fp forms (fp_form in msm_config.hpp).
  // std::invalid_argument for G2.
  double msm_ms_fp(fp_form form, const msm_config& cfg = {});
  ec::jacobian_t<C> last_result() const;

  struct impl;

 private:
  std::unique_ptr<impl> impl_;
};

}  // namespace cuzk::gpu
