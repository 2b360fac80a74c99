#pragma once
// Launch of one ntt_pass_kernel instance. Each (tile_log, threads) pair is
// instantiated in its own ntt_pass_<tile>_<threads>.cu so that the heavy
// kernels compile in parallel; callers see plain functions.
#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/cuda_check.cuh"
#include "gpu/ntt_pass.cuh"

namespace cuzk::gpu {

void launch_ntt_pass_10_256(const ntt_pass& a, bool dit, cudaStream_t s);
void launch_ntt_pass_11_256(const ntt_pass& a, bool dit, cudaStream_t s);
void launch_ntt_pass_11_512(const ntt_pass& a, bool dit, cudaStream_t s);
void launch_ntt_pass_12_512(const ntt_pass& a, bool dit, cudaStream_t s);
void launch_ntt_pass_12_1024(const ntt_pass& a, bool dit, cudaStream_t s);

template <uint32_t TL, uint32_t T, bool DIT>
void launch_ntt_pass_impl(const ntt_pass& a, cudaStream_t s) {
  constexpr uint32_t smem = ntt_tile_smem<TL>::bytes;
  CUDA_OK(cudaFuncSetAttribute(ntt_pass_kernel<TL, T, DIT>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  ntt_pass_kernel<TL, T, DIT><<<a.blocks(), T, smem, s>>>(a);
  CUDA_LAUNCH_OK();
}

}  // namespace cuzk::gpu
