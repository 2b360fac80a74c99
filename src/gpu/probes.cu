// Kernels and timing behind probes.hpp.
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/device_buffer.cuh"
#include "gpu/event.cuh"
#include "gpu/field_forms.cuh"
#include "gpu/fp2_d.cuh"
#include "gpu/fp_d.cuh"
#include "gpu/f52_d.cuh"
#include "gpu/fr_d.cuh"
#include "gpu/fr_io.cuh"
#include "gpu/probes.hpp"
#include "gpu/stream.cuh"
#include "gpu/xyzz_d.cuh"

namespace cuzk::gpu {

namespace {

// The probes' starting values x, y, z for thread `id`: distinct per thread,
// still below the modulus (each flips bits of one low word of R mod m, far
// below its top).
template <class M>
struct probe_start {
  M x = M::one(), y = M::one(), z = M::one();
  __device__ explicit probe_start(uint32_t id) {
    x.l[0] ^= id;
    y.l[1] ^= id * 0x9e3779b9u;
    z.l[2] ^= id * 0x85ebca6bu;
  }
};
using fr_start = probe_start<fr_d>;
using fp_start = probe_start<fp_d>;

// Two chains of products by mul (operator*, or Karatsuba for comparison).
template <fr_d (*mul)(const fr_d&, const fr_d&)>
__global__ void fr_mul_kernel(fr_d* out, uint32_t muls) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  auto [x, y, z] = fr_start(id);
  for (uint32_t i = 0; i < muls; ++i) {
    x = mul(x, z);
    y = mul(y, z);
  }
  store_f(out + id, x + y);
}

template <class F>
__device__ __forceinline__ F mul_op(const F& a, const F& b) {
  return a * b;
}

// fr_mul_kernel on the FP64 pipe: the same values, chains and output.
// Unbounded, ptxas gives it 128 registers (two blocks of 256 per SM); the
// bound pins that, and brings the mixed probe (130 registers unbounded: one
// block per SM) to the same occupancy with the same loop and no spills. At
// (256, 3) and (256, 4) the loop does not spill either (80, 64 registers):
// worth a try on the device.
__global__ void __launch_bounds__(256, 2) fr52_mul_kernel(fr_d* out, uint32_t muls) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  const fr_start s(id);
  fr52_d x = fr52_d::from(s.x), y = fr52_d::from(s.y), z = fr52_d::from(s.z);
  for (uint32_t i = 0; i < muls; ++i) {
    x = x * z;
    y = y * z;
  }
  store_f(out + id, x.to_mont() + y.to_mont());
}

// Both pipes at once: each iteration runs two fr_d products (IMAD pipe) and
// two fr52_d products (FP64 pipe) as four independent chains, so every warp
// can feed both pipes.
__global__ void __launch_bounds__(256, 2) fr_mul_mixed_kernel(fr_d* out, uint32_t iters) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  auto [x, y, z] = fr_start(id);
  fr52_d u = fr52_d::from(y), v = fr52_d::from(x), w = fr52_d::from(z);
  for (uint32_t i = 0; i < iters; ++i) {
    x = x * z;
    u = u * w;
    y = y * z;
    v = v * w;
  }
  store_f(out + id, (x + y) + (u.to_mont() + v.to_mont()));
}

// The f52_d test entry points' kernel: prod = a·b by operator*, chain =
// ((a·b)·b)·a, by operator* for Fr, by mul_rows for Fp (each product form
// checked on the device by one of them).
template <class F>
__global__ void f52_check_kernel(const typename F::mont_t* a, const typename F::mont_t* b, typename F::mont_t* prod,
                                 typename F::mont_t* chain, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const F x = F::from(load_f(a + i)), y = F::from(load_f(b + i));
    const F xy = x * y;
    store_f(prod + i, xy.to_mont());
    if constexpr (F::n == fp52_d::n) {
      store_f(chain + i, F::mul_rows(F::mul_rows(xy, y), x).to_mont());
    } else {
      store_f(chain + i, (xy * y * x).to_mont());
    }
  }
}

// fp_mul_kernel on the FP64 pipe (issue 19 item 2): C independent chains of
// fp52_d products per thread (C = 2 is fp_mul_kernel's shape), at two blocks
// of 256 per SM (at most 128 registers) or, Blocks = 1, with all registers;
// Rows: fp52_d::mul_rows instead of operator*.
template <int C, int Blocks, bool Rows>
__global__ void __launch_bounds__(256, Blocks) fp52_mul_kernel(fp_d* out, uint32_t muls) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  const fp_start s(id);
  const fp52_d z = fp52_d::from(s.z);
  fp52_d x[C];
CUZK_UNROLL
  for (int c = 0; c < C; ++c) x[c] = fp52_d::from(c % 2 ? s.y : s.x);
  for (uint32_t i = 0; i < muls; ++i) {
CUZK_UNROLL
    for (int c = 0; c < C; ++c) x[c] = Rows ? fp52_d::mul_rows(x[c], z) : x[c] * z;
  }
  fp_d r = x[0].to_mont();
CUZK_UNROLL
  for (int c = 1; c < C; ++c) r = r + x[c].to_mont();
  out[id] = r;
}

// Both pipes at once for Fp: each iteration runs one fp_d product (IMAD
// pipe) and one fp52_d::mul_rows product (FP64 pipe), two independent chains.
__global__ void __launch_bounds__(256, 2) fp_mul_mixed52_kernel(fp_d* out, uint32_t iters) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  const fp_start s(id);
  fp_d x = s.x;
  const fp_d z = s.z;
  fp52_d u = fp52_d::from(s.y);
  const fp52_d w = fp52_d::from(s.z);
  for (uint32_t i = 0; i < iters; ++i) {
    x = x * z;
    u = fp52_d::mul_rows(u, w);
  }
  out[id] = x + u.to_mont();
}

template <fp_d (*mul)(const fp_d&, const fp_d&)>
__global__ void fp_mul_kernel(fp_d* out, uint32_t muls) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  auto [x, y, z] = fp_start(id);
  for (uint32_t i = 0; i < muls; ++i) {
    x = mul(x, z);
    y = mul(y, z);
  }
  out[id] = x + y;
}

// Inversions, each of the previous result plus a constant (a dependent chain
// per thread): the binary GCD (mont_d::inverse) or Fermat.
template <bool fermat>
__global__ void fp_inv_kernel(fp_d* out, uint32_t invs) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  fp_d x = fp_d::one();
  x.l[0] ^= id;
  x.l[3] ^= id * 0x9e3779b9u;
  for (uint32_t i = 0; i < invs; ++i) x = (fermat ? x.fermat_inverse() : x.inverse()) + fp_d::one();
  out[id] = x;
}

// Two chains of squarings: sqr_sos (the dedicated square) or x·x (CIOS).
template <bool dedicated>
__global__ void fp_sqr_kernel(fp_d* out, uint32_t sqrs) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  fp_d x = fp_d::one(), y = fp_d::one();
  x.l[0] ^= id;
  y.l[1] ^= id * 0x9e3779b9u;
  for (uint32_t i = 0; i < sqrs; ++i) {
    x = dedicated ? x.sqr_sos() : x * x;
    y = dedicated ? y.sqr_sos() : y * y;
  }
  out[id] = x + y;
}

// The bucket loop's arithmetic without its memory: each thread adds points
// of a 64-entry table (L1-resident) into one XYZZ accumulator. The table
// holds arbitrary field elements, not curve points: the formulas cost the
// same, and P = 0 (the doubling branch) does not occur.
// G1 over fp_d or fp_lazy_d; G2 over any of the four Fp2 forms (fp2_d.cuh).
template <class F>
__global__ void add_mixed_kernel(const affine_d<F>* table, xyzz_d<F>* out, uint32_t adds) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  xyzz_d<F> acc = xyzz_d<F>::inf();
  acc.add_mixed(table[id % 64], false);
  for (uint32_t i = 1; i < adds; ++i) acc.add_mixed(table[(id + i * 7) % 64], (i & 1) != 0);
  out[id] = acc;
}

template <class F2>
__global__ void fp2_mul_kernel(F2* out, uint32_t muls) {
  static_assert(sizeof(F2) == sizeof(fp2_d));
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  fp2_d xs = fp2_d::one(), ys = fp2_d::one(), zs = fp2_d::one();
  xs.c0.l[0] ^= id;  // distinct values below p, valid in every form
  ys.c1.l[1] ^= id * 0x9e3779b9u;
  zs.c0.l[2] ^= id * 0x85ebca6bu;
  zs.c1 = zs.c0;
  F2 x, y, z;
  memcpy(&x, &xs, sizeof x);
  memcpy(&y, &ys, sizeof y);
  memcpy(&z, &zs, sizeof z);
  for (uint32_t i = 0; i < muls; ++i) {
    x = x * z;
    y = y * z;
  }
  out[id] = x + y;
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

// A probe kernel of the shape kernel(out, iterations): one output per thread.
template <class T>
double loop_kernel_ms(void (*kernel)(T*, uint32_t), uint32_t blocks, uint32_t threads, uint32_t iterations) {
  device_buffer<T> out(size_t(blocks) * threads);
  return time_ms([&](cudaStream_t s) {
    kernel<<<blocks, threads, 0, s>>>(out.data(), iterations);
    CUDA_LAUNCH_OK();
  });
}

}  // namespace

double fr_mul_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread) {
  return loop_kernel_ms(fr_mul_kernel<mul_op<fr_d>>, blocks, threads, muls_per_thread);
}

double fr_mul_karatsuba_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread) {
  return loop_kernel_ms(fr_mul_kernel<fr_d::mul_karatsuba>, blocks, threads, muls_per_thread);
}

double fr52_mul_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread) {
  return loop_kernel_ms(fr52_mul_kernel, blocks, threads, muls_per_thread);
}

double fr_mul_mixed_ms(uint32_t blocks, uint32_t threads, uint32_t iters_per_thread) {
  return loop_kernel_ms(fr_mul_mixed_kernel, blocks, threads, iters_per_thread);
}

namespace {

template <class F, class H>
void f52_mul_check(const char* name, std::span<const H> a, std::span<const H> b, std::span<H> prod,
                   std::span<H> chain) {
  const size_t n = a.size();
  if (b.size() != n || prod.size() != n || chain.size() != n) {
    throw std::invalid_argument(std::string("gpu::") + name + ": all spans must have the size of a");
  }
  if (n == 0) return;
  using M = typename F::mont_t;
  stream_t s;
  device_buffer<M> da(n), db(n), dp(n), dc(n);
  da.upload(a, s);
  db.upload(b, s);
  f52_check_kernel<F><<<unsigned((n + 255) / 256), 256, 0, s>>>(da.data(), db.data(), dp.data(), dc.data(), n);
  CUDA_LAUNCH_OK();
  dp.download(prod, s);
  dc.download(chain, s);
  s.sync();
}

}  // namespace

void fr52_mul_check(std::span<const ff::fr_t> a, std::span<const ff::fr_t> b, std::span<ff::fr_t> prod,
                    std::span<ff::fr_t> chain) {
  f52_mul_check<fr52_d>("fr52_mul_check", a, b, prod, chain);
}

double fp_mul_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread) {
  return loop_kernel_ms(fp_mul_kernel<mul_op<fp_d>>, blocks, threads, muls_per_thread);
}

double fp_mul_lazy_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread) {
  return loop_kernel_ms(fp_mul_kernel<fp_d::mul_cios<false>>, blocks, threads, muls_per_thread);
}

namespace {

template <int C, bool Rows>
double fp52_mul_ms_of(bool all_registers, uint32_t blocks, uint32_t threads, uint32_t muls_per_thread) {
  return all_registers ? loop_kernel_ms(fp52_mul_kernel<C, 1, Rows>, blocks, threads, muls_per_thread)
                       : loop_kernel_ms(fp52_mul_kernel<C, 2, Rows>, blocks, threads, muls_per_thread);
}

}  // namespace

double fp52_mul_ms(uint32_t chains, bool all_registers, bool rows, uint32_t blocks, uint32_t threads,
                   uint32_t muls_per_thread) {
  switch (chains * 2 + (rows ? 1 : 0)) {
    case 2: return fp52_mul_ms_of<1, false>(all_registers, blocks, threads, muls_per_thread);
    case 3: return fp52_mul_ms_of<1, true>(all_registers, blocks, threads, muls_per_thread);
    case 4: return fp52_mul_ms_of<2, false>(all_registers, blocks, threads, muls_per_thread);
    case 5: return fp52_mul_ms_of<2, true>(all_registers, blocks, threads, muls_per_thread);
    case 9: return fp52_mul_ms_of<4, true>(all_registers, blocks, threads, muls_per_thread);
  }
  throw std::invalid_argument("gpu::fp52_mul_ms: chains must be 1 or 2 (operator*), or 1, 2 or 4 (rows)");
}

double fp_mul_mixed52_ms(uint32_t blocks, uint32_t threads, uint32_t iters_per_thread) {
  return loop_kernel_ms(fp_mul_mixed52_kernel, blocks, threads, iters_per_thread);
}

void fp52_mul_check(std::span<const ff::fp_t> a, std::span<const ff::fp_t> b, std::span<ff::fp_t> prod,
                    std::span<ff::fp_t> chain) {
  f52_mul_check<fp52_d>("fp52_mul_check", a, b, prod, chain);
}

double fp_mul_karatsuba_ms(uint32_t blocks, uint32_t threads, uint32_t muls_per_thread) {
  return loop_kernel_ms(fp_mul_kernel<fp_d::mul_karatsuba>, blocks, threads, muls_per_thread);
}

double fp_inv_ms(bool fermat, uint32_t blocks, uint32_t threads, uint32_t invs_per_thread) {
  return loop_kernel_ms(fermat ? fp_inv_kernel<true> : fp_inv_kernel<false>, blocks, threads, invs_per_thread);
}

double fp_sqr_ms(uint32_t blocks, uint32_t threads, uint32_t sqrs_per_thread) {
  return loop_kernel_ms(fp_sqr_kernel<true>, blocks, threads, sqrs_per_thread);
}

double fp_sqr_by_mul_ms(uint32_t blocks, uint32_t threads, uint32_t sqrs_per_thread) {
  return loop_kernel_ms(fp_sqr_kernel<false>, blocks, threads, sqrs_per_thread);
}

namespace {

// The mixed-addition probe over a 64-entry table of points (in L1 after the first pass).
template <class F>
double add_mixed_ms_of(const std::vector<affine_d<F>>& table, uint32_t blocks, uint32_t threads,
                       uint32_t adds_per_thread) {
  device_buffer<affine_d<F>> t(table.size());
  CUDA_OK(cudaMemcpy(t.data(), table.data(), table.size() * sizeof(table[0]), cudaMemcpyHostToDevice));
  device_buffer<xyzz_d<F>> out(size_t(blocks) * threads);
  return time_ms([&](cudaStream_t s) {
    add_mixed_kernel<F><<<blocks, threads, 0, s>>>(t.data(), out.data(), adds_per_thread);
    CUDA_LAUNCH_OK();
  });
}

// Distinct x per entry (the probe times arithmetic, not curve membership),
// fully reduced, so valid in every Fp2 form (same layout).
template <class F2>
std::vector<affine_d<F2>> g2_probe_table() {
  static_assert(sizeof(affine_d<F2>) == sizeof(affine_d<fp2_d>));
  std::vector<affine_d<fp2_d>> table(64);
  for (size_t i = 0; i < table.size(); ++i) {
    table[i].x = fp2_d::one();
    table[i].y = fp2_d::one();
    table[i].x.c0.l[0] ^= uint32_t(i * 0x9e3779b9u) & 0xffffu;
    table[i].x.c1.l[1] ^= uint32_t(i * 0x27d4eb2fu);
    table[i].y.c1.l[1] ^= uint32_t(i * 0x85ebca6bu);
  }
  std::vector<affine_d<F2>> out(table.size());
  std::memcpy(static_cast<void*>(out.data()), table.data(), table.size() * sizeof(table[0]));
  return out;
}

}  // namespace

double g1_add_mixed_ms(fp_form form, uint32_t blocks, uint32_t threads, uint32_t adds_per_thread) {
  std::vector<affine_d<fp_d>> table(64);
  for (size_t i = 0; i < table.size(); ++i) {
    table[i].x = fp_d::one();
    table[i].y = fp_d::one();
    table[i].x.l[0] ^= uint32_t(i * 0x9e3779b9u) & 0xffffu;
    table[i].y.l[1] ^= uint32_t(i * 0x85ebca6bu);
  }
  return with_fp_form(form, [&]<class F>(form_tag<F>) {
    if constexpr (std::is_same_v<F, fp_d>) {
      return add_mixed_ms_of(table, blocks, threads, adds_per_thread);
    } else {
      std::vector<affine_d<F>> converted(table.size());
      for (size_t i = 0; i < table.size(); ++i) converted[i] = {F::of(table[i].x), F::of(table[i].y)};
      return add_mixed_ms_of(converted, blocks, threads, adds_per_thread);
    }
  });
}

double fp2_mul_ms(bool two_reductions, bool below_2p, uint32_t blocks, uint32_t threads, uint32_t muls_per_thread) {
  const fp2_product product = two_reductions ? fp2_product::two_reductions : fp2_product::three_reductions;
  return with_fp2_form(product, below_2p, [&]<class F2>(form_tag<F2>) {
    return loop_kernel_ms(fp2_mul_kernel<F2>, blocks, threads, muls_per_thread);
  });
}

double g2_add_mixed_ms(fp2_product product, bool below_2p, uint32_t blocks, uint32_t threads,
                       uint32_t adds_per_thread) {
  return with_fp2_form(product, below_2p, [&]<class F2>(form_tag<F2>) {
    return add_mixed_ms_of(g2_probe_table<F2>(), blocks, threads, adds_per_thread);
  });
}

double d2d_copy_ms(size_t bytes) {
  device_buffer<uint8_t> a(bytes), b(bytes);
  CUDA_OK(cudaMemset(a.data(), 1, bytes));
  return time_ms([&](cudaStream_t s) { CUDA_OK(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, s)); });
}

}  // namespace cuzk::gpu
