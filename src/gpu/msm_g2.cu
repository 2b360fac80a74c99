// GPU MSM for G2 over Fp2 (the kernels are templates in msm_impl.cuh).
#include "gpu/msm_impl.cuh"

CUZK_GPU_MSM_INSTANTIATE(cuzk::ec::g2_curve)
