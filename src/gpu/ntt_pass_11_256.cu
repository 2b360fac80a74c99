// ntt_pass_kernel with 2^11-element tiles and 256 threads per block.
#include "gpu/ntt_pass_launch.cuh"

namespace cuzk::gpu {

void launch_ntt_pass_11_256(const ntt_pass& a, bool dit, cudaStream_t s) {
  if (dit) launch_ntt_pass_impl<11, 256, true>(a, s);
  else launch_ntt_pass_impl<11, 256, false>(a, s);
}

}  // namespace cuzk::gpu
