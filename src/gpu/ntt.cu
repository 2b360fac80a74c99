// GPU NTT over Fr: pass planning, launches, tables, and the host-memory API.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/bit_reverse.cuh"
#include "gpu/cuda_check.cuh"
#include "gpu/device_buffer.cuh"
#include "gpu/device_scalars.cuh"
#include "gpu/event.cuh"
#include "gpu/ntt.hpp"
#include "gpu/ntt_device.cuh"
#include "gpu/ntt_domain_d.cuh"
#include "gpu/ntt_pass_launch.cuh"
#include "gpu/ntt_pass_shape.hpp"
#include "gpu/ntt_tables.hpp"
#include "gpu/staging.cuh"
#include "gpu/stream_buffer.cuh"
#include "gpu/stream.cuh"

namespace cuzk::gpu {

namespace {

using ff::fr_t;

fr_d to_d(const fr_t& x) {
  fr_d r;
  std::memcpy(&r, &x, sizeof r);
  return r;
}

void check_log_n(uint32_t log_n, const char* who) {
  if (log_n < 1 || log_n > ntt_max_log_n) {
    throw std::invalid_argument(std::string(who) + ": log_n " + std::to_string(log_n) + " outside [1, " +
                                std::to_string(ntt_max_log_n) + "]");
  }
}

std::unique_ptr<ntt_domain_d> build_domain(uint32_t log_n) {
  const ntt_tables t(log_n);
  auto d = std::make_unique<ntt_domain_d>();
  d->log_n = log_n;
  d->storage = device_buffer<fr_d>(t.data.size());
  // On a stream of its own: a device-wide synchronization here, under
  // ntt_domain's lock, would wait on every other worker's copies and kernels.
  stream_t s;
  d->storage.upload(std::span<const fr_t>(t.data), s);
  s.sync();
  const fr_d* base = d->storage.data();
  for (int i = 0; i < 2; ++i) {
    d->tw[i] = t.view(t.tw[i], base);
    d->inner[i] = base + t.inner[i];
    d->direct[i] = base + t.direct[i];
  }
  d->coset = t.view(t.coset, base);
  d->coset_n = t.view(t.coset_n, base);
  d->coset_inv_n = t.view(t.coset_inv_n, base);
  d->direct_log = t.direct_log;
  d->n_inv = to_d(t.n_inv);
  d->z_inv = to_d(t.z_inv);
  return d;
}

// ---- passes ---------------------------------------------------------------

void check_config(const ntt_config& cfg) {
  const bool ok = (cfg.tile_log == 10 && cfg.threads == 256) ||
                  (cfg.tile_log == 11 && (cfg.threads == 256 || cfg.threads == 512)) ||
                  (cfg.tile_log == 12 && (cfg.threads == 512 || cfg.threads == 1024));
  if (!ok) {
    throw std::invalid_argument("gpu::ntt: unsupported ntt_config (tile_log " + std::to_string(cfg.tile_log) +
                                ", threads " + std::to_string(cfg.threads) + ")");
  }
}

void launch_pass_cfg(const ntt_config& cfg, const ntt_pass& a, bool dit, cudaStream_t s) {
  if (cfg.tile_log == 10 && cfg.threads == 256) return launch_ntt_pass_10_256(a, dit, s);
  if (cfg.tile_log == 11 && cfg.threads == 512) return launch_ntt_pass_11_512(a, dit, s);
  if (cfg.tile_log == 11 && cfg.threads == 256) return launch_ntt_pass_11_256(a, dit, s);
  if (cfg.tile_log == 12 && cfg.threads == 1024) return launch_ntt_pass_12_1024(a, dit, s);
  if (cfg.tile_log == 12 && cfg.threads == 512) return launch_ntt_pass_12_512(a, dit, s);
  throw std::invalid_argument("gpu::ntt: unsupported ntt_config (tile_log " + std::to_string(cfg.tile_log) +
                              ", threads " + std::to_string(cfg.threads) + ")");
}

void run_passes(fr_d* x, uint32_t log_n, ntt_dir dir, bool dit, const scale_op& pre, const scale_op& post,
                cudaStream_t s, const ntt_config& cfg) {
  check_log_n(log_n, "gpu::ntt");
  check_config(cfg);
  const ntt_domain_d& d = ntt_domain(log_n);
  std::vector<ntt_pass_shape> passes = ntt_pass_shape::plan(log_n, cfg.tile_log);
  if (dit) std::reverse(passes.begin(), passes.end());
  const int di = dir == ntt_dir::forward ? 0 : 1;
  for (size_t i = 0; i < passes.size(); ++i) {
    ntt_pass p{};
    p.data = x;
    p.log_n = log_n;
    p.lo = passes[i].lo;
    p.k = passes[i].k;
    p.c = passes[i].c;
    p.inner = d.inner[di];
    p.tw = d.tw[di];
    p.direct = d.direct[di];
    p.direct_log = d.direct_log;
    if (i == 0) p.pre = pre;
    if (i + 1 == passes.size()) p.post = post;
    launch_pass_cfg(cfg, p, dit, s);
  }
}

__global__ void mul_kernel(fr_d* a, const fr_d* b, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    store_f(a + i, load_f(a + i) * load_f(b + i));
  }
}

__global__ void sub_scale_kernel(fr_d* a, const fr_d* c, const fr_d s, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    store_f(a + i, (load_f(a + i) - load_f(c + i)) * s);
  }
}

__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__global__ void fill_random_kernel(fr_d* x, size_t n, uint64_t seed) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    fr_d v;
#pragma unroll
    for (int w = 0; w < fr_d::n / 2; ++w) {
      uint64_t r = splitmix64(seed ^ (i * 4 + w) * 0xd1342543de82ef95ull);
      v.l[2 * w] = uint32_t(r);
      v.l[2 * w + 1] = uint32_t(r >> 32);
    }
    v.l[fr_d::n - 1] &= 0x3fffffffu;  // < 2^254 < r
    store_f(x + i, v);
  }
}

// Grid-stride loops: 16 blocks of 256 per SM (132 on an H200) keep every SM busy.
uint32_t elementwise_grid(size_t n) { return uint32_t(std::min<size_t>((n + 255) / 256, 132 * 16)); }

}  // namespace

// ---- device-resident API --------------------------------------------------

const ntt_domain_d& ntt_domain(uint32_t log_n) {
  static std::mutex mu;
  static std::map<std::pair<int, uint32_t>, std::unique_ptr<ntt_domain_d>> cache;
  check_log_n(log_n, "gpu::ntt_domain");
  int dev = 0;
  CUDA_OK(cudaGetDevice(&dev));
  std::lock_guard lock(mu);
  auto& slot = cache[{dev, log_n}];
  if (!slot) slot = build_domain(log_n);
  return *slot;
}

void prepare_ntt(uint32_t log_n) { (void)ntt_domain(log_n); }

void ntt_nr_d(fr_d* x, uint32_t log_n, ntt_dir dir, const scale_op& pre, const scale_op& post, cudaStream_t s,
              ntt_config cfg) {
  run_passes(x, log_n, dir, false, pre, post, s, cfg);
}

void ntt_rn_d(fr_d* x, uint32_t log_n, ntt_dir dir, const scale_op& pre, const scale_op& post, cudaStream_t s,
              ntt_config cfg) {
  run_passes(x, log_n, dir, true, pre, post, s, cfg);
}

void bit_reverse_d(fr_d* x, uint32_t log_n, cudaStream_t s) {
  check_log_n(log_n, "gpu::bit_reverse");
  constexpr uint32_t cb_max = 4;
  const uint32_t cb = std::min(cb_max, log_n / 2);
  bit_reverse_kernel<cb_max><<<1u << (log_n - 2 * cb), 256, 0, s>>>(x, log_n, cb);
  CUDA_LAUNCH_OK();
}

void ntt_d(fr_d* x, uint32_t log_n, ntt_dir dir, bool coset, cudaStream_t s, ntt_config cfg) {
  const ntt_domain_d& d = ntt_domain(log_n);
  const scale_op none{};
  if (dir == ntt_dir::forward) {
    ntt_nr_d(x, log_n, dir, coset ? scale_op::by_powers(d.coset, false) : none, none, s, cfg);
  } else {
    ntt_nr_d(x, log_n, dir, none, coset ? scale_op::by_powers(d.coset_inv_n, true) : scale_op::by_constant(d.n_inv),
             s, cfg);
  }
  bit_reverse_d(x, log_n, s);
}

namespace {

// Values on H -> values on g·H with no bit reversal: the inverse DIF leaves
// coefficients bit-reversed, g^i/n is applied at its last store, and the
// forward DIT takes bit-reversed input.
void to_coset_d(fr_d* x, const ntt_domain_d& d, uint32_t log_n, cudaStream_t s, const ntt_config& cfg) {
  const scale_op none{};
  ntt_nr_d(x, log_n, ntt_dir::inverse, none, scale_op::by_powers(d.coset_n, true), s, cfg);
  ntt_rn_d(x, log_n, ntt_dir::forward, none, none, s, cfg);
}

// a, b on g·H -> a = R, the coefficients of the polynomial through A·B's
// values on g·H (bit-reversed order, g^-i/n applied at the last store).
void coset_product_to_coefficients_d(fr_d* a, const fr_d* b, const ntt_domain_d& d, uint32_t log_n, cudaStream_t s,
                                     const ntt_config& cfg) {
  const size_t n = size_t(1) << log_n;
  mul_kernel<<<elementwise_grid(n), 256, 0, s>>>(a, b, n);
  CUDA_LAUNCH_OK();
  ntt_nr_d(a, log_n, ntt_dir::inverse, scale_op{}, scale_op::by_powers(d.coset_inv_n, true), s, cfg);
}

// c on H -> C's coefficients (bit-reversed order).
void values_to_coefficients_d(fr_d* c, const ntt_domain_d& d, uint32_t log_n, cudaStream_t s,
                              const ntt_config& cfg) {
  ntt_nr_d(c, log_n, ntt_dir::inverse, scale_op{}, scale_op::by_constant(d.n_inv), s, cfg);
}

// H = (R - C)/(g^n - 1), as bellman's coset quotient for any a, b, c: R and C
// agree with A·B and C on H's points (R - C vanishes there, so Z divides it)
// and R - C = A·B - C on g·H, where bellman divides by Z(g·x) = g^n - 1.
// Both are bit-reversed; one reversal leaves H in natural order.
void h_from_coefficients_d(fr_d* r, const fr_d* c, const ntt_domain_d& d, uint32_t log_n, cudaStream_t s) {
  const size_t n = size_t(1) << log_n;
  sub_scale_kernel<<<elementwise_grid(n), 256, 0, s>>>(r, c, d.z_inv, n);
  CUDA_LAUNCH_OK();
  bit_reverse_d(r, log_n, s);
}

}  // namespace

void compute_h_d(fr_d* a, fr_d* b, fr_d* c, uint32_t log_n, cudaStream_t s, ntt_config cfg) {
  const ntt_domain_d& d = ntt_domain(log_n);
  for (fr_d* x : {a, b}) to_coset_d(x, d, log_n, s, cfg);
  coset_product_to_coefficients_d(a, b, d, log_n, s, cfg);
  values_to_coefficients_d(c, d, log_n, s, cfg);
  h_from_coefficients_d(a, c, d, log_n, s);
}

void fill_random_d(fr_d* x, size_t n, uint64_t seed, cudaStream_t s) {
  fill_random_kernel<<<elementwise_grid(n), 256, 0, s>>>(x, n, seed);
  CUDA_LAUNCH_OK();
}

// ---- host-memory API ------------------------------------------------------

void ntt(std::span<fr_t> data, uint32_t log_n, ntt_dir dir, bool coset, ntt_config cfg) {
  check_log_n(log_n, "gpu::ntt");
  if (data.size() != (size_t(1) << log_n)) {
    throw std::invalid_argument("gpu::ntt: data.size() " + std::to_string(data.size()) + " != 2^" +
                                std::to_string(log_n));
  }
  check_config(cfg);
  stream_t s;
  device_buffer<fr_d> x(data.size());
  x.upload(std::span<const fr_t>(data), s);
  ntt_d(x.data(), log_n, dir, coset, s, cfg);
  x.download(data, s);
  s.sync();
}

namespace {

uint32_t check_h_sizes(size_t n, size_t nb, size_t nc, const char* who) {
  if (n < 2 || (n & (n - 1)) || nb != n || nc != n) {
    throw std::invalid_argument(std::string(who) + ": a, b, c must have the same power-of-two size >= 2");
  }
  const uint32_t log_n = uint32_t(std::countr_zero(n));
  check_log_n(log_n, who);
  return log_n;
}

}  // namespace

void compute_h(std::span<fr_t> a, std::span<const fr_t> b, std::span<const fr_t> c, ntt_config cfg) {
  device_scalars h = compute_h_resident(a, b, c, cfg);
  CUDA_OK(cudaMemcpy(a.data(), h.get().data, a.size_bytes(), cudaMemcpyDeviceToHost));
}

device_scalars compute_h_resident(std::span<const fr_t> a, std::span<const fr_t> b, std::span<const fr_t> c,
                                  ntt_config cfg, compute_h_times* times) {
  const auto called = std::chrono::steady_clock::now();
  const size_t n = a.size();
  const uint32_t log_n = check_h_sizes(n, b.size(), c.size(), "gpu::compute_h");
  check_config(cfg);
  const ntt_domain_d& d = ntt_domain(log_n);  // tables built (and synchronized) before the streams start
  stream_t copy, work;
  auto h = std::make_unique<device_scalars::impl>(n, work.get());
  stream_buffer<fr_d> db(n, work), dc(n, work);  // released on `work` after the quotient
  event_t allocated;
  allocated.record(work);
  CUDA_OK(cudaStreamWaitEvent(copy, allocated.get()));
  // Each vector's transforms start as soon as its copy is in.
  fr_d* dst[3] = {h->data, db.data, dc.data};
  const fr_t* src[3] = {a.data(), b.data(), c.data()};
  event_t arrived[3], started, finished;
  started.record(copy);
  for (int k = 0; k < 3; ++k) {
    upload_host(dst[k], src[k], n * sizeof(fr_t), copy);  // DMA when pinned in place (pin_until_freed)
    arrived[k].record(copy);
    CUDA_OK(cudaStreamWaitEvent(work, arrived[k].get()));
    if (k < 2) to_coset_d(dst[k], d, log_n, work, cfg);
    if (k == 1) coset_product_to_coefficients_d(h->data, db.data, d, log_n, work, cfg);
    if (k == 2) values_to_coefficients_d(dc.data, d, log_n, work, cfg);
  }
  const auto queued = std::chrono::steady_clock::now();
  h_from_coefficients_d(h->data, dc.data, d, log_n, work);
  finished.record(work);
  work.sync();
  if (times) {
    times->queued_ms = std::chrono::duration<double, std::milli>(queued - called).count();
    times->uploaded_ms = arrived[2].ms_since(started);
    times->finished_ms = finished.ms_since(started);
  }
  return device_scalars(std::move(h));
}

device_scalars compute_h_resident(device_scalars&& a, device_scalars&& b, device_scalars&& c, ntt_config cfg,
                                  compute_h_times* times) {
  const auto called = std::chrono::steady_clock::now();
  const size_t n = a.size();
  const uint32_t log_n = check_h_sizes(n, b.size(), c.size(), "gpu::compute_h_resident");
  check_config(cfg);
  const ntt_domain_d& d = ntt_domain(log_n);
  stream_t work;  // a, b, c were complete when handed over (form_rows synchronizes)
  event_t started, finished;
  started.record(work);
  compute_h_d(a.get().data, b.get().data, c.get().data, log_n, work, cfg);
  const auto queued = std::chrono::steady_clock::now();
  finished.record(work);
  work.sync();
  if (times) {
    times->queued_ms = std::chrono::duration<double, std::milli>(queued - called).count();
    times->uploaded_ms = 0;
    times->finished_ms = finished.ms_since(started);
  }
  { device_scalars drop_b = std::move(b), drop_c = std::move(c); }
  return std::move(a);
}

}  // namespace cuzk::gpu
