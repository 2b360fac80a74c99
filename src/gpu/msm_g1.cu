// GPU MSM for G1 (the kernels are templates in msm_impl.cuh). The forms the
// MSM does not use, which msm_timer compares, build in their own files.
#include "gpu/msm_impl.cuh"

CUZK_GPU_MSM_RUN(extern, cuzk::ec::g1_curve, cuzk::gpu::fp_d)
CUZK_GPU_MSM_RUN(extern, cuzk::ec::g1_curve, cuzk::gpu::fp_lazy_unfused_d)
CUZK_GPU_MSM_INSTANTIATE(cuzk::ec::g1_curve)
