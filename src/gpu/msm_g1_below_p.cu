// The G1 MSM over Fp below p (fp_d), for msm_timer::msm_ms_fp (msm_g1.cu).
#include "gpu/msm_impl.cuh"

CUZK_GPU_MSM_RUN(, cuzk::ec::g1_curve, cuzk::gpu::fp_d)
