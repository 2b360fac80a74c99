// ntt_pass_kernel with 2^12-element tiles and 1024 threads per block.
#include "gpu/ntt_pass_launch.cuh"

namespace cuzk::gpu {

void launch_ntt_pass_12_1024(const ntt_pass& a, bool dit, cudaStream_t s) {
  if (dit) launch_ntt_pass_impl<12, 1024, true>(a, s);
  else launch_ntt_pass_impl<12, 1024, false>(a, s);
}

}  // namespace cuzk::gpu
