#include "gpu/device_scalars.cuh"
#include "gpu/staging.cuh"
#include "gpu/stream.cuh"

namespace cuzk::gpu {

device_scalars::device_scalars() : impl_(std::make_unique<impl>()) {}
device_scalars::device_scalars(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
device_scalars::~device_scalars() = default;
device_scalars::device_scalars(device_scalars&&) noexcept = default;
device_scalars& device_scalars::operator=(device_scalars&&) noexcept = default;

device_scalars device_scalars::upload(std::span<const ff::fr_t> values) {
  stream_t s;
  auto p = std::make_unique<impl>(values.size(), s.get());
  upload_host(p->data, values.data(), values.size_bytes(), s);  // synchronized below: the source may be freed after
  s.sync();
  return device_scalars(std::move(p));
}

size_t device_scalars::size() const { return impl_ ? impl_->n : 0; }

std::vector<ff::fr_t> device_scalars::to_host() const {
  std::vector<ff::fr_t> out(size());
  if (!out.empty()) CUDA_OK(cudaMemcpy(out.data(), impl_->data, out.size() * sizeof(ff::fr_t), cudaMemcpyDeviceToHost));
  return out;
}

}  // namespace cuzk::gpu
