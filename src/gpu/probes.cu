// Kernels and timing behind probes.hpp.
#include <vector>

#include "gpu/device_buffer.cuh"
#include "gpu/event.cuh"
#include "gpu/fp_d.cuh"
#include "gpu/fr_d.cuh"
#include "gpu/fr_io.cuh"
#include "gpu/probes.hpp"
#include "gpu/stream.cuh"
#include "gpu/xyzz_d.cuh"

namespace cuzk::gpu {

namespace {

__global__ void fr_mul_kernel(fr_d* out, uint32_t muls) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  fr_d x = fr_d::one(), y = fr_d::one(), z = fr_d::one();
  x.l[0] ^= id;  // distinct, still < r (the low word of R mod r is not all ones)
  y.l[1] ^= id * 0x9e3779b9u;
  z.l[2] ^= id * 0x85ebca6bu;
  for (uint32_t i = 0; i < muls; ++i) {
    x = x * z;
    y = y * z;
  }
  store_f(out + id, x + y);
}

__global__ void fp_mul_kernel(fp_d* out, uint32_t muls) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  fp_d x = fp_d::one(), y = fp_d::one(), z = fp_d::one();
  x.l[0] ^= id;  // distinct values below p
  y.l[1] ^= id * 0x9e3779b9u;
  z.l[2] ^= id * 0x85ebca6bu;
  for (uint32_t i = 0; i < muls; ++i) {
    x = x * z;
    y = y * z;
  }
  out[id] = x + y;
}

// The bucket loop's arithmetic without its memory: each thread adds points
// of a 64-entry table (L1-resident) into one XYZZ accumulator. The table
// holds arbitrary field elements, not curve points: the formulas cost the
// same, and P = 0 (the doubling branch) does not occur.
__global__ void g1_add_mixed_kernel(const affine_d<fp_d>* table, xyzz_d<fp_d>* out, uint32_t adds) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  xyzz_d<fp_d> acc = xyzz_d<fp_d>::inf();
  acc.add_mixed(table[id % 64], false);
  for (uint32_t i = 1; i < adds; ++i) acc.add_mixed(table[(id + i * 7) % 64], (i & 1) != 0);
  out[id] = acc;
}

template <class F>
double time_ms(F&& work) {
  stream_t s;
  event_t start, stop;
  work(s.get());  // warm-up: module load, first-touch
  start.record(s);
  work(s.get());
  stop.record(s);
  stop.sync();
  return stop.ms_since(start);
}

}  // namespace

double fr_mul_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread) {
  device_buffer<fr_d> out(size_t(blocks) * threads);
  return time_ms([&](cudaStream_t s) {
    fr_mul_kernel<<<blocks, threads, 0, s>>>(out.data(), muls_per_thread);
    CUDA_LAUNCH_OK();
  });
}

double fp_mul_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread) {
  device_buffer<fp_d> out(size_t(blocks) * threads);
  return time_ms([&](cudaStream_t s) {
    fp_mul_kernel<<<blocks, threads, 0, s>>>(out.data(), muls_per_thread);
    CUDA_LAUNCH_OK();
  });
}

double g1_add_mixed_ms(uint32_t blocks, uint32_t threads, uint32_t adds_per_thread) {
  std::vector<affine_d<fp_d>> table(64);
  for (size_t i = 0; i < table.size(); ++i) {
    table[i].x = fp_d::one();
    table[i].y = fp_d::one();
    table[i].x.l[0] ^= uint32_t(i * 0x9e3779b9u) & 0xffffu;
    table[i].y.l[1] ^= uint32_t(i * 0x85ebca6bu);
  }
  device_buffer<affine_d<fp_d>> t(table.size());
  CUDA_OK(cudaMemcpy(t.data(), table.data(), table.size() * sizeof(table[0]), cudaMemcpyHostToDevice));
  device_buffer<xyzz_d<fp_d>> out(size_t(blocks) * threads);
  return time_ms([&](cudaStream_t s) {
    g1_add_mixed_kernel<<<blocks, threads, 0, s>>>(t.data(), out.data(), adds_per_thread);
    CUDA_LAUNCH_OK();
  });
}

double d2d_copy_ms(size_t bytes) {
  device_buffer<uint8_t> a(bytes), b(bytes);
  CUDA_OK(cudaMemset(a.data(), 1, bytes));
  return time_ms([&](cudaStream_t s) { CUDA_OK(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, s)); });
}

}  // namespace cuzk::gpu
