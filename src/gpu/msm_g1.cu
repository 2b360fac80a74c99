// GPU MSM for G1 (the kernels are templates in msm_impl.cuh).
#include "gpu/msm_impl.cuh"

CUZK_GPU_MSM_INSTANTIATE(cuzk::ec::g1_curve)
