// form_rows: one thread per (instance, row) of each block forms that row of
// a, b and c (rows_d::eval_row); one per input row; one per variable expands
// the aux; one per row checks a·b = c, the first failing row by atomicMin.
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/compiled_rows.hpp"
#include "gpu/compiled_rows_d.cuh"
#include "gpu/cuda_check.cuh"
#include "gpu/device_buffer.cuh"
#include "gpu/device_scalars.cuh"
#include "gpu/event.cuh"
#include "gpu/staging.cuh"
#include "gpu/stream.cuh"
#include "gpu/stream_buffer.cuh"

namespace cuzk::gpu {

namespace {

using view_t = r1cs::compiled_rows_view_t;

struct matrix_copy_t {
  device_buffer<uint32_t> row_end;
  device_buffer<uint16_t> terms;
  rows_d::matrix_d get() const { return {row_end.data(), terms.data()}; }
};

matrix_copy_t upload_matrix(const view_t::matrix_t& m, cudaStream_t s) {
  matrix_copy_t out{device_buffer<uint32_t>(m.row_end.size()), device_buffer<uint16_t>(m.terms.size())};
  out.row_end.upload(m.row_end, s);
  out.terms.upload(m.terms, s);
  return out;
}

template <class T>
size_t bytes_of(const device_buffer<T>& b) {
  return b.bytes();
}

__global__ void block_rows_kernel(rows_d::matrix_d ma, rows_d::matrix_d mb, rows_d::matrix_d mc, const fr_d* coeffs,
                                  rows_d::witness_d w, const view_t::instance_t* instances, size_t instances_n,
                                  size_t rows, fr_d* a, fr_d* b, fr_d* c) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= instances_n * rows) return;
  const view_t::instance_t in = instances[t / rows];
  const size_t r = t % rows, out = in.row + r;
  a[out] = rows_d::eval_row(ma, r, coeffs, w, in.aux, in.input, in.window);
  b[out] = rows_d::eval_row(mb, r, coeffs, w, in.aux, in.input, in.window);
  c[out] = rows_d::eval_row(mc, r, coeffs, w, in.aux, in.input, in.window);
}

// x_i * 0 = 0 for every input, after the circuit's rows.
__global__ void input_rows_kernel(const fr_d* inputs, size_t n, size_t first, fr_d* a, fr_d* b, fr_d* c) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  a[first + i] = inputs[i];
  b[first + i] = fr_d::zero();
  c[first + i] = fr_d::zero();
}

__global__ void expand_kernel(rows_d::compact_d aux, size_t n, fr_d* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = aux[i];
}

__global__ void check_kernel(const fr_d* a, const fr_d* b, const fr_d* c, size_t n, unsigned long long* first) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n && !rows_d::row_holds(a[i], b[i], c[i])) atomicMin(first, static_cast<unsigned long long>(i));
}

unsigned grid(size_t n) { return unsigned((n + 255) / 256); }

}  // namespace

struct device_rows_t::impl {
  struct block_copy_t {
    matrix_copy_t a, b, c;
    device_buffer<view_t::instance_t> instances;
    size_t instances_n = 0, rows = 0;
  };
  device_buffer<fr_d> coeffs;
  std::vector<block_copy_t> blocks;
  size_t circuit_rows = 0, num_inputs = 0, num_aux = 0;
};

device_rows_t::device_rows_t(const view_t& v) : impl_(std::make_unique<impl>()) {
  impl& d = *impl_;
  stream_t s;
  d.coeffs = device_buffer<fr_d>(v.coeffs.size());
  d.coeffs.upload(v.coeffs, s);
  for (const view_t::block_t& b : v.blocks) {
    if (b.b.row_end.size() != b.rows() || b.c.row_end.size() != b.rows())
      throw std::invalid_argument("gpu::device_rows_t: a block's A, B and C differ in rows");
    impl::block_copy_t c{upload_matrix(b.a, s), upload_matrix(b.b, s), upload_matrix(b.c, s),
                         device_buffer<view_t::instance_t>(b.instances.size()), b.instances.size(), b.rows()};
    if (!b.instances.empty())
      upload_staged(c.instances.data(), b.instances.data(), b.instances.size() * sizeof(view_t::instance_t), s);
    d.blocks.push_back(std::move(c));
  }
  d.circuit_rows = v.circuit_rows;
  d.num_inputs = v.num_inputs;
  d.num_aux = v.num_aux;
  s.sync();
}

device_rows_t::~device_rows_t() = default;
device_rows_t::device_rows_t(device_rows_t&&) noexcept = default;
device_rows_t& device_rows_t::operator=(device_rows_t&&) noexcept = default;

size_t device_rows_t::bytes() const {
  size_t n = impl_->coeffs.bytes();
  for (const auto& b : impl_->blocks) {
    for (const matrix_copy_t* m : {&b.a, &b.b, &b.c}) n += bytes_of(m->row_end) + bytes_of(m->terms);
    n += bytes_of(b.instances);
  }
  return n;
}
size_t device_rows_t::num_constraints() const { return impl_->circuit_rows + impl_->num_inputs; }
size_t device_rows_t::num_inputs() const { return impl_->num_inputs; }
size_t device_rows_t::num_aux() const { return impl_->num_aux; }

device_witness_t form_rows(const device_rows_t& rows, std::span<const ff::fr_t> inputs,
                           const r1cs::compact_assignment_t& aux, size_t domain_n) {
  const device_rows_t::impl& d = rows.get();
  const size_t n_rows = rows.num_constraints();
  if (inputs.size() != d.num_inputs || aux.size() != d.num_aux) {
    throw std::invalid_argument("gpu::form_rows: " + std::to_string(inputs.size()) + " inputs and " +
                                std::to_string(aux.size()) + " aux for rows of " + std::to_string(d.num_inputs) +
                                " and " + std::to_string(d.num_aux));
  }
  if (domain_n < n_rows || (domain_n & (domain_n - 1)) != 0) {
    throw std::invalid_argument("gpu::form_rows: a domain of " + std::to_string(domain_n) + " for " +
                                std::to_string(n_rows) + " rows");
  }
  stream_t s;
  event_t started, uploaded, formed, checked;
  started.record(s);
  // Packed aux and inputs up; released on s once the kernels are done.
  stream_buffer<uint64_t> wide_bits(aux.wide_bits().size(), s), value_bits(aux.value_bits().size(), s),
      rank(aux.rank().size(), s);
  stream_buffer<fr_d> wide(aux.wide_count(), s), in(inputs.size(), s);
  upload_staged(wide_bits.data, aux.wide_bits().data(), aux.wide_bits().size_bytes(), s);
  upload_staged(value_bits.data, aux.value_bits().data(), aux.value_bits().size_bytes(), s);
  upload_staged(rank.data, aux.rank().data(), aux.rank().size_bytes(), s);
  upload_staged(wide.data, aux.wide_values().data(), aux.wide_values().size_bytes(), s);
  upload_staged(in.data, inputs.data(), inputs.size_bytes(), s);
  uploaded.record(s);

  device_witness_t out;
  auto make = [&](size_t n) { return device_scalars(std::make_unique<device_scalars::impl>(n, s.get())); };
  out.aux = make(aux.size());
  out.a = make(domain_n);
  out.b = make(domain_n);
  out.c = make(domain_n);
  const rows_d::witness_d w{in.data, {wide_bits.data, value_bits.data, rank.data, wide.data}};
  fr_d* a = out.a.get().data;
  fr_d* b = out.b.get().data;
  fr_d* c = out.c.get().data;
  if (domain_n > n_rows) {
    const size_t pad = (domain_n - n_rows) * sizeof(fr_d);  // Montgomery zero is all zero bytes
    for (fr_d* v : {a, b, c}) CUDA_OK(cudaMemsetAsync(v + n_rows, 0, pad, s));
  }
  for (const auto& blk : d.blocks) {
    const size_t threads = blk.instances_n * blk.rows;
    if (threads == 0) continue;
    block_rows_kernel<<<grid(threads), 256, 0, s>>>(blk.a.get(), blk.b.get(), blk.c.get(), d.coeffs.data(), w,
                                                     blk.instances.data(), blk.instances_n, blk.rows, a, b, c);
    CUDA_LAUNCH_OK();
  }
  if (!inputs.empty()) {
    input_rows_kernel<<<grid(inputs.size()), 256, 0, s>>>(in.data, inputs.size(), d.circuit_rows, a, b, c);
    CUDA_LAUNCH_OK();
  }
  if (aux.size()) {
    expand_kernel<<<grid(aux.size()), 256, 0, s>>>(w.aux, aux.size(), out.aux.get().data);
    CUDA_LAUNCH_OK();
  }
  formed.record(s);
  stream_buffer<unsigned long long> first(1, s);
  CUDA_OK(cudaMemsetAsync(first.data, 0xff, sizeof(unsigned long long), s));
  if (n_rows) {
    check_kernel<<<grid(n_rows), 256, 0, s>>>(a, b, c, n_rows, first.data);
    CUDA_LAUNCH_OK();
  }
  checked.record(s);
  unsigned long long first_host = 0;
  CUDA_OK(cudaMemcpyAsync(&first_host, first.data, sizeof first_host, cudaMemcpyDeviceToHost, s));
  s.sync();
  out.first_unsatisfied = first_host == ~0ull ? SIZE_MAX : size_t(first_host);
  out.upload_ms = uploaded.ms_since(started);
  out.rows_ms = formed.ms_since(uploaded);
  out.check_ms = checked.ms_since(formed);
  return out;
}

}  // namespace cuzk::gpu
