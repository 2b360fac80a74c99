// Kernels behind field_check.hpp.
#include <stdexcept>

#include "gpu/device_buffer.cuh"
#include "gpu/field_check.hpp"
#include "gpu/fp_d.cuh"
#include "gpu/fr_d.cuh"
#include "gpu/fr_io.cuh"
#include "gpu/stream.cuh"

namespace cuzk::gpu {

namespace {

template <class F>
__global__ void field_ops_kernel(const F* a, const F* b, F* sum, F* diff, F* prod, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const F x = load_f(a + i), y = load_f(b + i);
    store_f(sum + i, x + y);
    store_f(diff + i, x - y);
    store_f(prod + i, x * y);
  }
}

template <class F>
__global__ void copy_kernel(const F* in, F* out, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    store_f(out + i, load_f(in + i));
  }
}

template <class D, class H>
void run_ops(std::span<const H> a, std::span<const H> b, std::span<H> sum, std::span<H> diff, std::span<H> prod) {
  const size_t n = a.size();
  if (b.size() != n || sum.size() != n || diff.size() != n || prod.size() != n) {
    throw std::invalid_argument("gpu::field_ops_on_device: all spans must have the size of a");
  }
  if (n == 0) return;
  stream_t s;
  device_buffer<D> da(n), db(n), ds(n), dd(n), dp(n);
  da.upload(a, s);
  db.upload(b, s);
  field_ops_kernel<D><<<unsigned((n + 255) / 256), 256, 0, s>>>(da.data(), db.data(), ds.data(), dd.data(), dp.data(), n);
  CUDA_LAUNCH_OK();
  ds.download(sum, s);
  dd.download(diff, s);
  dp.download(prod, s);
  s.sync();
}

}  // namespace

void field_ops_on_device(std::span<const ff::fr_t> a, std::span<const ff::fr_t> b, std::span<ff::fr_t> sum,
                         std::span<ff::fr_t> diff, std::span<ff::fr_t> prod) {
  run_ops<fr_d>(a, b, sum, diff, prod);
}

void field_ops_on_device(std::span<const ff::fp_t> a, std::span<const ff::fp_t> b, std::span<ff::fp_t> sum,
                         std::span<ff::fp_t> diff, std::span<ff::fp_t> prod) {
  run_ops<fp_d>(a, b, sum, diff, prod);
}

void copy_through_device(std::span<const ff::fr_t> in, std::span<ff::fr_t> out) {
  if (out.size() != in.size()) throw std::invalid_argument("gpu::copy_through_device: sizes differ");
  if (in.empty()) return;
  stream_t s;
  device_buffer<fr_d> a(in.size()), b(in.size());
  a.upload(in, s);
  copy_kernel<fr_d><<<unsigned((in.size() + 255) / 256), 256, 0, s>>>(a.data(), b.data(), in.size());
  CUDA_LAUNCH_OK();
  b.download(out, s);
  s.sync();
}

}  // namespace cuzk::gpu
