#pragma once
// GPU MSM driver: launches, scratch memory, the host's final window
// combination, and the member functions of msm_bases and msm_timer.
// Included by msm_g1.cu and msm_g2.cu, which instantiate it per curve.
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "gpu/cuda_check.cuh"
#include "gpu/cuda_threads.hpp"
#include "gpu/device.hpp"
#include "gpu/device_buffer.cuh"
#include "gpu/device_scalars.cuh"
#include "gpu/event.cuh"
#include "gpu/field_forms.cuh"
#include "gpu/fp2_d.cuh"
#include "gpu/fp_lazy_d.cuh"
#include "gpu/msm_bases.hpp"
#include "gpu/msm_kernels.cuh"
#include "gpu/msm_plan.hpp"
#include "gpu/msm_timer.hpp"
#include "gpu/staging.cuh"
#include "gpu/stream.cuh"

namespace cuzk::gpu {

// The field form each curve's MSM runs over, chosen by whole-MSM medians on
// one GPU (BM_gpu_msm_g1_lazy, BM_gpu_msm_g2_fp2; BENCHMARKS.md, 2026-12-07):
// G1 over fp_lazy_d (coordinates below 2p, products without their final
// subtraction), 3.3-3.5 % faster than fp_d at 2^24 and 2^27, and with each
// formula's Y = a·b - c·d in one Montgomery reduction 4.3-4.6 % more at
// 2^24-2^27 (session 31, H100: 2^27 860 against 899 ms); G2 over
// fp2_lazy_d (Fp2 products of two Montgomery reductions), 5.4 % faster than
// fp2_d at 2^24 (coordinates below 2p on top gained nothing more). Every form
// reads the same base bytes (fully reduced values are valid in each) and the
// results leave through canonical(), so the host sees the same points.
template <class C>
struct field_of;
template <>
struct field_of<ec::g1_curve> {
  using type = fp_lazy_d;
};
template <>
struct field_of<ec::g2_curve> {
  using type = fp2_lazy_d;
};
// The Fp forms (G1's; the affine and lanes sums and the bounded-register
// accumulation are built for these only).
template <class F>
inline constexpr bool is_g1_field =
    std::is_same_v<F, fp_d> || std::is_same_v<F, fp_lazy_d> || std::is_same_v<F, fp_lazy_unfused_d>;

namespace msm_detail {

// Grows b to at least n elements, stream-ordered on s (the workspace's
// stream, the only one its scratch is grown or freed on; the side stream's
// use of it lies between events of that stream): growing never waits for the
// other streams' kernels, as a cudaFree would.
template <class T>
void ensure(device_buffer<T>& b, size_t n, cudaStream_t s) {
  if (b.size() >= n) return;
  b = device_buffer<T>();  // free first: peak memory stays one copy
  b = device_buffer<T>(n, s);
}

inline unsigned blocks_for(size_t threads, unsigned per_block) { return unsigned((threads + per_block - 1) / per_block); }

// Scratch of one MSM, kept between calls and grown on demand.
template <class F>
struct workspace {
  using P = xyzz_d<F>;
  stream_t stream;
  // Digits and sorts when they run beside the accumulation: `side` at
  // `stream`'s priority (msm_sort::overlapped), `side_above` one priority step
  // above it (msm_sort::overlapped_above: a sort's blocks take SMs first as
  // the accumulation's blocks end; measured no faster than in turn). Their work is ordered after `stream`'s
  // by an event at the start of the windows and waited for by `stream` before
  // the reduction, so the scratch is still only ever grown or freed on `stream`.
  stream_t side;
  stream_t side_above = stream_t::above(stream);
  device_buffer<fr_d> scalars, canon;
  device_buffer<uint8_t> is_one, is_other, tail_open;
  device_buffer<uint32_t> idx, count, keys, vals, keys_alt, vals_alt;
  device_buffer<uint8_t> temp;
  device_buffer<P> buckets, head_part, tail_part, red_a, red_b, ones;
  // Affine sums: each round's leaders, keys and points (two sides, a round
  // reads one and writes the other), the pairs' prefix and thread products,
  // and the same per level of the batched inversion.
  device_buffer<uint32_t> lead;
  device_buffer<uint32_t> next_key[2];
  device_buffer<affine_d<F>> pts[2];
  device_buffer<F> pair_prefix, pair_prod;
  std::array<device_buffer<F>, 8> inv_prefix, inv_prod;

  // Frees every scratch buffer (stream-ordered: nothing waits); the next
  // run grows them again. The stream stays.
  void release() {
    scalars = {}, canon = {};
    is_one = {}, is_other = {}, tail_open = {};
    idx = {}, count = {}, keys = {}, vals = {}, keys_alt = {}, vals_alt = {};
    temp = {};
    buckets = {}, head_part = {}, tail_part = {}, red_a = {}, red_b = {}, ones = {};
    lead = {};
    for (auto& b : next_key) b = {};
    for (auto& b : pts) b = {};
    pair_prefix = {}, pair_prod = {};
    for (auto& b : inv_prefix) b = {};
    for (auto& b : inv_prod) b = {};
  }
};

// Sums groups of `size` consecutive points down to one per group; returns where the sums are.
template <class F>
const xyzz_d<F>* reduce_to_one(workspace<F>& ws, const xyzz_d<F>* in, size_t groups, size_t size) {
  constexpr uint32_t fan = 16;
  const xyzz_d<F>* cur = in;
  bool to_a = true;
  while (size > 1) {
    const size_t outs = (size + fan - 1) / fan;
    device_buffer<xyzz_d<F>>& dst = to_a ? ws.red_a : ws.red_b;
    ensure(dst, groups * outs, ws.stream);
    msm_kernels::reduce_groups<F><<<blocks_for(groups * outs, 128), 128, 0, ws.stream>>>(cur, groups, size, fan,
                                                                                           dst.data());
    CUDA_LAUNCH_OK();
    cur = dst.data();
    size = outs;
    to_a = !to_a;
  }
  return cur;
}

constexpr size_t default_affine_slice = size_t(1) << 25;

struct max_u32 {
  __host__ __device__ uint32_t operator()(uint32_t a, uint32_t b) const { return a > b ? a : b; }
};

// x[0, m) <- their inverses (none zero): the batched trick per level, single inversions below single_below.
template <class F>
void invert_in_place(workspace<F>& ws, F* x, size_t m, size_t level) {
  if (m <= msm_affine::single_below) {
    msm_kernels::invert_each<F><<<blocks_for(m, 128), 128, 0, ws.stream>>>(x, m);
    CUDA_LAUNCH_OK();
    return;
  }
  if (level >= ws.inv_prefix.size()) throw std::logic_error("gpu msm: batched inversion nested too deep");
  const size_t T = msm_affine::group_threads(m);
  ensure(ws.inv_prefix[level], m, ws.stream);
  ensure(ws.inv_prod[level], T, ws.stream);
  F* prefix = ws.inv_prefix[level].data();
  F* prod = ws.inv_prod[level].data();
  msm_kernels::batch_forward<F><<<blocks_for(T, 128), 128, 0, ws.stream>>>(x, m, prefix, prod);
  CUDA_LAUNCH_OK();
  invert_in_place(ws, prod, T, level + 1);
  msm_kernels::batch_backward<F><<<blocks_for(T, 128), 128, 0, ws.stream>>>(x, m, prefix, prod);
  CUDA_LAUNCH_OK();
}

// Bucket sums of one batch's sorted entries by affine rounds (msm_affine.cuh),
// `slice` entries at a time; each run's sum is added into its bucket, so a
// run may span slices. Uses ws.keys and ws.vals (free once the batch is
// sorted) for the run starts and the output positions.
template <class F>
void affine_sums(workspace<F>& ws, const affine_d<F>* bases, const uint32_t* keys, const uint32_t* vals, size_t total,
                 size_t slice, const msm_plan& plan, xyzz_d<F>* bucket_out) {
  cudaStream_t st = ws.stream;
  uint32_t* starts = ws.keys.data();  // head indices, then per-item flags
  uint32_t* pos = ws.vals.data();     // run starts, then output positions
  slice = std::min(slice, size_t(1) << 30);  // CUB's scans count in int
  for (size_t s0 = 0; s0 < total; s0 += slice) {
    msm_affine::items_t<F> it;
    it.key = keys + s0;
    it.n = std::min(slice, total - s0);
    it.bases = bases;
    it.vals = vals + s0;
    for (int side = 0; it.n > 0; side ^= 1) {
      const size_t n = it.n;
      msm_kernels::affine_heads<F><<<blocks_for(n, 256), 256, 0, st>>>(it.key, n, starts);
      CUDA_LAUNCH_OK();
      size_t tb = 0;
      CUDA_OK(cub::DeviceScan::InclusiveScan(nullptr, tb, starts, pos, max_u32{}, int(n), st));
      ensure(ws.temp, tb, ws.stream);
      CUDA_OK(cub::DeviceScan::InclusiveScan(ws.temp.data(), tb, starts, pos, max_u32{}, int(n), st));
      msm_kernels::affine_flags<F><<<blocks_for(n, 128), 128, 0, st>>>(it, pos, plan.c, plan.buckets, bucket_out,
                                                                        starts);
      CUDA_LAUNCH_OK();
      CUDA_OK(cub::DeviceScan::InclusiveSum(nullptr, tb, starts, pos, int(n), st));
      ensure(ws.temp, tb, ws.stream);
      CUDA_OK(cub::DeviceScan::InclusiveSum(ws.temp.data(), tb, starts, pos, int(n), st));
      uint32_t m = 0;
      CUDA_OK(cudaMemcpyAsync(&m, pos + n - 1, sizeof m, cudaMemcpyDeviceToHost, st));
      CUDA_OK(cudaStreamSynchronize(st));  // also: nothing queued uses the buffers grown below
      if (m == 0) break;
      const size_t T = msm_affine::group_threads(m);
      ensure(ws.lead, m, ws.stream);
      ensure(ws.next_key[side], m, ws.stream);
      ensure(ws.pts[side], m, ws.stream);
      ensure(ws.pair_prefix, m, ws.stream);
      ensure(ws.pair_prod, T, ws.stream);
      msm_kernels::affine_scatter<F><<<blocks_for(n, 256), 256, 0, st>>>(it.key, pos, n, ws.lead.data(),
                                                                          ws.next_key[side].data());
      CUDA_LAUNCH_OK();
      msm_kernels::affine_forward<F><<<blocks_for(T, 128), 128, 0, st>>>(it, ws.lead.data(), m,
                                                                          ws.pair_prefix.data(), ws.pair_prod.data());
      CUDA_LAUNCH_OK();
      invert_in_place(ws, ws.pair_prod.data(), T, 0);
      msm_kernels::affine_backward<F><<<blocks_for(T, 128), 128, 0, st>>>(
          it, ws.lead.data(), m, ws.pair_prefix.data(), ws.pair_prod.data(), ws.pts[side].data());
      CUDA_LAUNCH_OK();
      it.key = ws.next_key[side].data();
      it.pts = ws.pts[side].data();
      it.vals = nullptr;
      it.n = m;
    }
  }
}

// Events between the stages of one run when msm_config::stages is set.
struct stage_clock {
  msm_stage_ms* out;
  cudaStream_t st;
  std::vector<event_t> marks;
  explicit stage_clock(msm_stage_ms* o, cudaStream_t s) : out(o), st(s) {
    if (out) *out = msm_stage_ms{};
    mark();
  }
  void mark() {
    if (!out) return;
    marks.emplace_back();
    marks.back().record(st);
  }
  // Adds the time since the previous mark to `field` and starts the next interval.
  void lap(double msm_stage_ms::*field) {
    if (!out) return;
    mark();
    marks.back().sync();
    out->*field += marks.back().ms_since(marks[marks.size() - 2]);
  }
};

constexpr uint32_t default_lanes = 16;
constexpr size_t default_lanes_threads = size_t(1) << 16;

// Bucket sums of one batch's sorted entries in affine lanes (msm_lanes.cuh):
// threads of K lanes, then the XYZZ sums' fix-up over their chunks.
template <class F>
void lanes_sums(workspace<F>& ws, const affine_d<F>* bases, const uint32_t* keys, const uint32_t* vals, size_t total,
                uint32_t K, size_t threads, const msm_plan& plan, xyzz_d<F>* bucket_out) {
  cudaStream_t st = ws.stream;
  const auto lp = msm_lanes::lanes_plan::make(total, threads, K);
  ensure(ws.head_part, lp.chunks, st);
  ensure(ws.tail_part, lp.chunks, st);
  ensure(ws.tail_open, lp.chunks, st);
  auto kernel = K == 8 ? msm_kernels::accumulate_lanes<F, 8>
                       : K == 16 ? msm_kernels::accumulate_lanes<F, 16> : msm_kernels::accumulate_lanes<F, 32>;
  kernel<<<blocks_for(lp.threads, 128), 128, 0, st>>>(bases, keys, vals, total, lp.L, lp.chunks, lp.threads, plan.c,
                                                       plan.buckets, bucket_out, ws.head_part.data(),
                                                       ws.tail_part.data(), ws.tail_open.data());
  CUDA_LAUNCH_OK();
  msm_kernels::fixup<F><<<blocks_for(lp.chunks, 128), 128, 0, st>>>(keys, total, lp.L, lp.chunks, plan.c,
                                                                     plan.buckets, bucket_out, ws.head_part.data(),
                                                                     ws.tail_part.data(), ws.tail_open.data());
  CUDA_LAUNCH_OK();
}

// The XYZZ accumulation kernel of msm_config::accumulate_blocks.
template <class F>
auto accumulate_kernel(const msm_config& cfg) {
  auto kernel = msm_kernels::accumulate<F>;  // G2, and G1 when asked: unbounded registers
  if constexpr (is_g1_field<F>) {
    const uint32_t blocks = cfg.accumulate_blocks ? cfg.accumulate_blocks : 4;
    if (blocks == 3) kernel = msm_kernels::accumulate<F, 3>;
    if (blocks == 4) kernel = msm_kernels::accumulate<F, 4>;
  }
  return kernel;
}

// The bucket sums of every window, batch by batch: a batch's digits go to
// keys/vals at once, and each of its windows is sorted by bucket into
// keys_alt/vals_alt. Two orders (msm_config::sort):
// - in turn: everything on the main stream; a batch's windows are sorted side
//   by side and summed by one launch over all of them (plan.chunk entries per
//   thread), in XYZZ, or for G1 when asked in affine slices or lanes;
// - overlapped: digits and sorts on a side stream (ws.side, or ws.side_above
//   for msm_sort::overlapped_above), one window ahead of the XYZZ sums on the
//   main stream. Window w is sorted into slot plan.slot_of(w); a slot is sorted
//   into again only after the window that used it was summed; each window is
//   its own launch over m entries (msm_plan::window_chunk per thread).
// With stages: in turn, the sorts go to `sort` and the sums to `accumulate`;
// overlapped, the side stream's own time in digits and sorts goes to `sort`
// and the whole phase to `accumulate`.
template <class F>
void sum_windows(workspace<F>& ws, const affine_d<F>* bases, size_t m, const msm_plan& plan, const msm_config& cfg,
                 bool overlapped, stage_clock& clock) {
  const bool affine = cfg.sums == msm_sums::affine, lanes = cfg.sums == msm_sums::lanes;
  const uint32_t lanes_k = cfg.lanes ? cfg.lanes : default_lanes;
  cudaStream_t st = ws.stream;
  cudaStream_t sorter = !overlapped                                ? st
                        : cfg.sort == msm_sort::overlapped_above ? cudaStream_t(ws.side_above)
                                                                 : cudaStream_t(ws.side);
  // Sorted windows held at once, and the entries of one accumulation launch's threads.
  const uint32_t W = plan.windows, slots = overlapped ? plan.sorted_slots() : plan.batch_windows;
  const size_t L = overlapped ? msm_plan::window_chunk(m, cfg.threads, cfg.chunk) : plan.chunk;
  const size_t most = overlapped ? m : plan.batch_entries(m);  // entries of one launch
  ensure(ws.keys, plan.batch_entries(m), st);
  ensure(ws.vals, plan.batch_entries(m), st);
  ensure(ws.keys_alt, size_t(slots) * m, st);
  ensure(ws.vals_alt, size_t(slots) * m, st);
  ensure(ws.head_part, (most + L - 1) / L, st);
  ensure(ws.tail_part, (most + L - 1) / L, st);
  ensure(ws.tail_open, (most + L - 1) / L, st);
  size_t tb = 0;
  CUDA_OK(cub::DeviceRadixSort::SortPairs(nullptr, tb, ws.keys.data(), ws.keys_alt.data(), ws.vals.data(),
                                          ws.vals_alt.data(), int(m), 0, int(plan.c), st));
  ensure(ws.temp, tb, st);
  const auto kernel = accumulate_kernel<F>(cfg);
  // The sums of `total` sorted entries into every window's buckets.
  auto sum = [&](const uint32_t* keys, const uint32_t* vals, size_t total) {
    if constexpr (is_g1_field<F>) {
      if (affine) {
        affine_sums(ws, bases, keys, vals, total, cfg.affine_slice ? cfg.affine_slice : default_affine_slice, plan,
                    ws.buckets.data());
        return;
      }
      if (lanes) {
        lanes_sums(ws, bases, keys, vals, total, lanes_k, cfg.threads ? cfg.threads : default_lanes_threads, plan,
                   ws.buckets.data());
        return;
      }
    }
    const size_t chunks = (total + L - 1) / L;
    kernel<<<blocks_for(chunks, 128), 128, 0, st>>>(bases, keys, vals, total, L, chunks, plan.c, plan.buckets,
                                                     ws.buckets.data(), ws.head_part.data(), ws.tail_part.data(),
                                                     ws.tail_open.data());
    CUDA_LAUNCH_OK();
    msm_kernels::fixup<F><<<blocks_for(chunks, 128), 128, 0, st>>>(keys, total, L, chunks, plan.c, plan.buckets,
                                                                    ws.buckets.data(), ws.head_part.data(),
                                                                    ws.tail_part.data(), ws.tail_open.data());
    CUDA_LAUNCH_OK();
  };

  const bool side_spans = overlapped && clock.out;
  std::vector<event_t> sorted, summed, sort_begin, sort_end;
  for (uint32_t w = 0; overlapped && w < W; ++w) {
    sorted.emplace_back(event_t::no_timing_t{});
    summed.emplace_back(event_t::no_timing_t{});
    if (side_spans) sort_begin.emplace_back(), sort_end.emplace_back();
  }
  if (overlapped) {
    event_t ready(event_t::no_timing_t{});
    ready.record(st);  // scratch grown, scalars classified and compacted
    CUDA_OK(cudaStreamWaitEvent(sorter, ready.get()));
  }
  try {
    // Enqueued window by window, so each wait names an event already recorded.
    for (uint32_t b = 0; b < plan.batches(); ++b) {
      const uint32_t first = plan.batch_first(b), count = plan.batch_size(b);
      for (uint32_t j = 0; j < count; ++j) {
        const uint32_t w = first + j;
        if (overlapped && w >= slots) CUDA_OK(cudaStreamWaitEvent(sorter, summed[w - slots].get()));
        if (side_spans) sort_begin[w].record(sorter);  // after the wait: the span is the side stream's own work
        if (j == 0) {
          msm_kernels::digits<<<blocks_for(m, 256), 256, 0, sorter>>>(ws.canon.data(), ws.idx.data(), m, plan.c,
                                                                      first, count, ws.keys.data(), ws.vals.data());
          CUDA_LAUNCH_OK();
        }
        const size_t in = size_t(j) * m, out = size_t(overlapped ? plan.slot_of(w) : j) * m;
        CUDA_OK(cub::DeviceRadixSort::SortPairs(ws.temp.data(), tb, ws.keys.data() + in, ws.keys_alt.data() + out,
                                                ws.vals.data() + in, ws.vals_alt.data() + out, int(m), 0,
                                                int(plan.c), sorter));
        if (!overlapped) continue;
        if (side_spans) sort_end[w].record(sorter);
        sorted[w].record(sorter);
        CUDA_OK(cudaStreamWaitEvent(st, sorted[w].get()));
        sum(ws.keys_alt.data() + out, ws.vals_alt.data() + out, m);
        summed[w].record(st);
      }
      if (overlapped) continue;
      clock.lap(&msm_stage_ms::sort);
      sum(ws.keys_alt.data(), ws.vals_alt.data(), size_t(count) * m);
      clock.lap(&msm_stage_ms::accumulate);
    }
  } catch (...) {
    // The side stream's queued sorts still write the workspace: the main
    // stream (whose order the workspace's reuse follows) waits for them.
    if (overlapped) {
      cudaEvent_t done = nullptr;
      if (cudaEventCreateWithFlags(&done, cudaEventDisableTiming) == cudaSuccess) {
        if (cudaEventRecord(done, sorter) == cudaSuccess) cudaStreamWaitEvent(st, done);
        cudaEventDestroy(done);
      }
    }
    throw;
  }
  if (!overlapped) return;
  clock.lap(&msm_stage_ms::accumulate);
  if (side_spans) {
    CUDA_OK(cudaStreamSynchronize(sorter));
    for (uint32_t w = 0; w < W; ++w) clock.out->sort += sort_end[w].ms_since(sort_begin[w]);
  }
}

// sum_i scalars[i] · bases[i] with both on the device (scalars in Montgomery form).
template <class C, class F = typename field_of<C>::type>
ec::jacobian_t<C> run(workspace<F>& ws, const affine_d<F>* bases, const fr_d* scalars, size_t n,
                      const msm_config& cfg) {
  using P = xyzz_d<F>;
  using J = ec::jacobian_t<C>;
  static_assert(sizeof(P) == sizeof(ec::xyzz_t<C>));
  if (n == 0) return J::infinity();
  if (n >= (size_t(1) << 31)) throw std::invalid_argument("gpu msm: more than 2^31 - 1 points");
  cudaStream_t st = ws.stream;
  stage_clock clock(cfg.stages, st);
  ensure(ws.canon, n, ws.stream);
  ensure(ws.is_one, n, ws.stream);
  ensure(ws.is_other, n, ws.stream);
  ensure(ws.idx, n, ws.stream);
  ensure(ws.count, 1, ws.stream);
  msm_kernels::classify<<<blocks_for(n, 256), 256, 0, st>>>(scalars, n, ws.canon.data(), ws.is_one.data(),
                                                            ws.is_other.data());
  CUDA_LAUNCH_OK();

  thrust::counting_iterator<uint32_t> iota(0);
  size_t tb = 0;
  CUDA_OK(cub::DeviceSelect::Flagged(nullptr, tb, iota, ws.is_other.data(), ws.idx.data(), ws.count.data(), n, st));
  ensure(ws.temp, tb, ws.stream);
  CUDA_OK(cub::DeviceSelect::Flagged(ws.temp.data(), tb, iota, ws.is_other.data(), ws.idx.data(), ws.count.data(), n,
                                     st));

  // Scalars equal to 1: strided partial sums, then a tree.
  const size_t ones_threads = std::min<size_t>(size_t(1) << 15, (n + 127) / 128 * 128);
  ensure(ws.ones, ones_threads, ws.stream);
  msm_kernels::sum_ones<F><<<unsigned(ones_threads / 128), 128, 0, st>>>(bases, ws.is_one.data(), n, ws.ones.data());
  CUDA_LAUNCH_OK();
  std::vector<P> host_out;
  {
    const P* ones_sum = reduce_to_one(ws, ws.ones.data(), 1, ones_threads);
    host_out.resize(1);
    CUDA_OK(cudaMemcpyAsync(host_out.data(), ones_sum, sizeof(P), cudaMemcpyDeviceToHost, st));
  }
  uint32_t m = 0;
  CUDA_OK(cudaMemcpyAsync(&m, ws.count.data(), sizeof m, cudaMemcpyDeviceToHost, st));
  CUDA_OK(cudaStreamSynchronize(st));
  clock.lap(&msm_stage_ms::prepare);

  const msm_plan plan = msm_plan::make(
      m, cfg.window_bits, cfg.chunk, cfg.threads ? cfg.threads : msm_plan::default_threads,
      cfg.batch_entries ? cfg.batch_entries : msm_plan::default_batch_entries,
      cfg.bucket_weight > 0 ? cfg.bucket_weight : msm_plan::default_bucket_weight);
  if (cfg.stages) {
    cfg.stages->c = plan.c;
    cfg.stages->windows = plan.windows;
    cfg.stages->batches = m ? plan.batches() : 0;
    cfg.stages->others = m;
  }
  const bool affine = cfg.sums == msm_sums::affine, lanes = cfg.sums == msm_sums::lanes;
  if (lanes && cfg.lanes != 0 && cfg.lanes != 8 && cfg.lanes != 16 && cfg.lanes != 32)
    throw std::invalid_argument("gpu msm: lanes " + std::to_string(cfg.lanes) + " (8, 16 or 32)");
  std::vector<P> windows;
  if (m != 0) {
    const size_t nb = size_t(plan.windows) * plan.buckets;
    ensure(ws.buckets, nb, ws.stream);
    CUDA_OK(cudaMemsetAsync(ws.buckets.data(), 0, nb * sizeof(P), st));
    // Batches of whole windows bound the scratch (2^27 points, 13 windows
    // would need 28 GB at once); the buckets of every window stay.
    const bool overlapped = !affine && !lanes &&
                            (cfg.sort == msm_sort::overlapped || cfg.sort == msm_sort::overlapped_above ||
                             (cfg.sort == msm_sort::automatic && is_g1_field<F> && plan.batches() > 1));
    sum_windows(ws, bases, m, plan, cfg, overlapped, clock);
    // The segment sums reuse the chunk scratch (the chunks are done with it).
    const size_t segs = size_t(plan.windows) * plan.segments();
    ensure(ws.head_part, segs, ws.stream);
    ensure(ws.tail_part, segs, ws.stream);
    msm_kernels::bucket_running<F><<<blocks_for(segs, 128), 128, 0, st>>>(ws.buckets.data(), plan.buckets,
                                                                          plan.segment, segs);
    CUDA_LAUNCH_OK();
    msm_kernels::segment_sums<F><<<blocks_for(segs, 128), 128, 0, st>>>(
        ws.buckets.data(), plan.buckets, plan.segment, segs, ws.tail_part.data(), ws.head_part.data());
    CUDA_LAUNCH_OK();
    msm_kernels::segment_finish<F><<<blocks_for(segs, 128), 128, 0, st>>>(ws.tail_part.data(), plan.buckets,
                                                                          plan.segment, segs, ws.head_part.data());
    CUDA_LAUNCH_OK();
    const P* sums = reduce_to_one(ws, ws.head_part.data(), plan.windows, plan.segments());
    windows.resize(plan.windows);
    CUDA_OK(cudaMemcpyAsync(windows.data(), sums, plan.windows * sizeof(P), cudaMemcpyDeviceToHost, st));
    CUDA_OK(cudaStreamSynchronize(st));
    clock.lap(&msm_stage_ms::reduce);
  }

  auto to_host = [](const P& p) {
    const auto c = canonical(p);  // fp_lazy_d's coordinates are below 2p
    ec::xyzz_t<C> h;
    static_assert(sizeof c == sizeof h);
    std::memcpy(static_cast<void*>(&h), &c, sizeof c);
    return h.to_jacobian();
  };
  J acc = J::infinity();
  for (size_t w = windows.size(); w-- > 0;) {
    for (uint32_t k = 0; k < plan.c && !acc.is_inf(); ++k) acc = acc.dbl();
    acc += to_host(windows[w]);
  }
  return acc + to_host(host_out[0]);
}

}  // namespace msm_detail

template <class C>
struct msm_bases<C>::impl {
  using F = typename field_of<C>::type;
  using A = affine_d<F>;
  residency_t tier = residency_t::device;
  // device: every base; pinned / pageable: two windows of `window` points.
  device_buffer<A> bases;
  std::span<const ec::affine_t<C>> host;  // pinned / pageable: the caller's points
  host_pin pin;                           // pinned: their registration
  size_t window = 0;
  stream_t copy;     // window uploads
  event_t loaded[2];  // the last upload into each window
  mutable std::mutex mu;
  mutable msm_detail::workspace<F> ws;

  size_t size() const { return tier == residency_t::device ? bases.size() : host.size(); }

  // Queues the upload of host points [at, at + count) into window k on `copy`
  // and records loaded[k]. Pinned: one DMA (upload_pinned); pageable: through
  // the staging buffers (the calling thread fills them, so it returns when the
  // last piece is queued).
  void load(uint32_t k, size_t at, size_t count) {
    A* dst = bases.data() + size_t(k) * window;
    if (tier == residency_t::pinned) {
      upload_pinned(dst, host.data() + at, count * sizeof(A), pin, copy);
    } else {
      upload_staged(dst, host.data() + at, count * sizeof(A), copy);
    }
    loaded[k].record(copy);
  }

  // sum over [offset, offset + count) with scalars[i] for base offset + i.
  ec::jacobian_t<C> run(const fr_d* scalars, size_t count, size_t offset, const msm_config& cfg) {
    if (tier == residency_t::device) return msm_detail::run<C>(ws, bases.data() + offset, scalars, count, cfg);
    // Window i + 1 goes up while window i's MSM runs; run() returns only when
    // its kernels are done, so the window it read is free for i + 2. A
    // pageable window is filled by a helper thread (upload_staged keeps its
    // caller busy copying), joined before its event is waited on.
    ec::jacobian_t<C> acc = ec::jacobian_t<C>::infinity();
    const size_t windows = (count + window - 1) / window;
    auto queue = [&](size_t i) {
      const size_t at = i * window;
      const size_t len = std::min(window, count - at);
      if (tier == residency_t::pinned) {
        load(uint32_t(i % 2), offset + at, len);
        return std::future<void>();
      }
      const int device = current_device();
      return cuda_async([this, device, i, at, len, offset] {
        set_device(device);
        load(uint32_t(i % 2), offset + at, len);
      });
    };
    std::future<void> next = windows ? queue(0) : std::future<void>();
    for (size_t i = 0; i < windows; ++i) {
      std::future<void> cur = std::move(next);
      if (cur.valid()) cur.get();
      if (i + 1 < windows) next = queue(i + 1);
      CUDA_OK(cudaStreamWaitEvent(ws.stream, loaded[i % 2].get()));
      const size_t at = i * window;
      acc += msm_detail::run<C>(ws, bases.data() + (i % 2) * window, scalars + at, std::min(window, count - at), cfg);
    }
    if (next.valid()) next.get();
    return acc;
  }
};

template <class C>
msm_bases<C>::msm_bases(std::span<const ec::affine_t<C>> b, residency_t tier, size_t window_points)
    : impl_(std::make_unique<impl>()) {
  static_assert(sizeof(affine_d<typename impl::F>) == sizeof(ec::affine_t<C>));
  auto& m = *impl_;
  m.tier = tier;
  if (tier == residency_t::device) {
    m.bases = device_buffer<affine_d<typename impl::F>>(b.size());
    m.bases.upload(b, m.ws.stream);
    m.ws.stream.sync();
    return;
  }
  m.host = b;
  m.window = std::max<size_t>(1, std::min(window_points ? window_points : default_window_points, b.size()));
  if (tier == residency_t::pinned) m.pin = host_pin(b.data(), b.size_bytes());
  m.bases = device_buffer<affine_d<typename impl::F>>(b.empty() ? 0 : 2 * m.window);
}
template <class C>
msm_bases<C>::msm_bases(size_t count, const fill_t& fill, size_t chunk_points) : impl_(std::make_unique<impl>()) {
  auto& m = *impl_;
  m.tier = residency_t::device;
  m.bases = device_buffer<affine_d<typename impl::F>>(count);
  // One host buffer of at most chunk_points points, filled and uploaded in turn:
  // the decoding (parallel, in fill) is most of the time, the upload ~1/30 of it.
  const size_t chunk = std::max<size_t>(1, std::min(chunk_points, count));
  std::vector<ec::affine_t<C>> buf(count ? chunk : 0);
  for (size_t at = 0; at < count; at += chunk) {
    const std::span<ec::affine_t<C>> piece(buf.data(), std::min(chunk, count - at));
    fill(at, piece);
    upload_staged(m.bases.data() + at, piece.data(), piece.size_bytes(), m.ws.stream);
  }
  m.ws.stream.sync();
}
template <class C>
msm_bases<C>::msm_bases(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
template <class C>
msm_bases<C>::~msm_bases() = default;
template <class C>
msm_bases<C>::msm_bases(msm_bases&&) noexcept = default;
template <class C>
msm_bases<C>& msm_bases<C>::operator=(msm_bases&&) noexcept = default;
template <class C>
size_t msm_bases<C>::size() const {
  return impl_->size();
}

template <class C>
void msm_bases<C>::check_range(size_t count, size_t offset) const {
  if (offset > size() || count > size() - offset)
    throw std::invalid_argument("gpu msm: scalars [" + std::to_string(offset) + ", " + std::to_string(offset + count) +
                                ") outside the " + std::to_string(size()) + " bases");
}

template <class C>
ec::jacobian_t<C> msm_bases<C>::msm(std::span<const ff::fr_t> scalars, size_t offset, const msm_config& cfg) const {
  check_range(scalars.size(), offset);
  std::lock_guard lock(impl_->mu);
  auto& ws = impl_->ws;
  msm_detail::ensure(ws.scalars, scalars.size(), ws.stream);
  upload_staged(ws.scalars.data(), scalars.data(), scalars.size_bytes(), ws.stream);
  const auto r = impl_->run(ws.scalars.data(), scalars.size(), offset, cfg);
  if (cfg.release_scratch) ws.release();
  return r;
}

template <class C>
ec::jacobian_t<C> msm_bases<C>::msm(const device_scalars& scalars, size_t count, size_t offset,
                                    const msm_config& cfg) const {
  if (count > scalars.size())
    throw std::invalid_argument("gpu msm: " + std::to_string(count) + " scalars asked of " +
                                std::to_string(scalars.size()) + " on the device");
  check_range(count, offset);
  std::lock_guard lock(impl_->mu);
  const auto r = impl_->run(scalars.get().data, count, offset, cfg);
  if (cfg.release_scratch) impl_->ws.release();
  return r;
}

template <class C>
struct msm_timer<C>::impl {
  using F = typename field_of<C>::type;
  msm_bases<C> bases;
  device_buffer<fr_d> scalars;
  // Workspaces of the runs over the forms the MSM does not use (run_with), one per type.
  template <class G>
  using ws_ptr = std::unique_ptr<msm_detail::workspace<G>>;
  std::tuple<ws_ptr<fp_d>, ws_ptr<fp_lazy_d>, ws_ptr<fp_lazy_unfused_d>, ws_ptr<fp2_d>, ws_ptr<fp2_lazy_d>,
             ws_ptr<fp2_lazy_fused_d>, ws_ptr<fp2_below_2p_d>,
             ws_ptr<fp2_lazy_below_2p_d>>
      other_ws;
  ec::jacobian_t<C> result = ec::jacobian_t<C>::infinity();

  // The MSM over field type G (same bytes for the bases: fully reduced values
  // are valid in every form), timed with CUDA events; the MSM's own form runs
  // on the bases' workspace, as msm_ms does.
  template <class G>
  double run_with(const msm_config& cfg) {
    static_assert(sizeof(affine_d<G>) == sizeof(affine_d<F>));
    auto& b = bases.get();
    msm_detail::workspace<G>* ws = nullptr;
    if constexpr (std::is_same_v<G, F>) {
      ws = &b.ws;
    } else {
      auto& p = std::get<ws_ptr<G>>(other_ws);
      if (!p) p = std::make_unique<msm_detail::workspace<G>>();
      ws = p.get();
    }
    const auto* g = reinterpret_cast<const affine_d<G>*>(b.bases.data());
    event_t start, stop;
    start.record(ws->stream);
    result = msm_detail::run<C, G>(*ws, g, scalars.data(), scalars.size(), cfg);
    stop.record(ws->stream);
    stop.sync();
    return stop.ms_since(start);
  }
  explicit impl(std::span<const ec::affine_t<C>> distinct) : bases(distinct) {}
};

template <class C>
msm_timer<C>::msm_timer(std::span<const ec::affine_t<C>> distinct, uint32_t log_n, uint64_t seed, uint32_t zero_pct,
                        uint32_t one_pct) {
  using F = typename impl::F;
  if (distinct.empty()) throw std::invalid_argument("msm_timer: no distinct bases");
  const size_t n = size_t(1) << log_n;
  auto tiled = std::make_unique<typename msm_bases<C>::impl>();
  tiled->bases = device_buffer<affine_d<F>>(n);
  {
    msm_bases<C> src(distinct);
    const size_t d = src.size();
    for (size_t at = 0; at < n; at += d)
      CUDA_OK(cudaMemcpy(tiled->bases.data() + at, src.get().bases.data(), std::min(d, n - at) * sizeof(affine_d<F>),
                         cudaMemcpyDeviceToDevice));
  }
  impl_ = std::make_unique<impl>(distinct.first(1));
  impl_->bases = msm_bases<C>(std::move(tiled));
  impl_->scalars = device_buffer<fr_d>(n);
  msm_kernels::random_scalars<<<msm_detail::blocks_for(n, 256), 256>>>(impl_->scalars.data(), n, seed, zero_pct,
                                                                      one_pct);
  CUDA_LAUNCH_OK();
  CUDA_OK(cudaDeviceSynchronize());
}
template <class C>
msm_timer<C>::~msm_timer() = default;

template <class C>
double msm_timer<C>::msm_ms(const msm_config& cfg) {
  return impl_->template run_with<typename impl::F>(cfg);
}
template <class C>
double msm_timer<C>::msm_ms_fp2(fp2_product product, bool below_2p, const msm_config& cfg) {
  if constexpr (std::is_same_v<C, ec::g2_curve>) {
    return with_fp2_form(product, below_2p, [&]<class F>(form_tag<F>) { return impl_->template run_with<F>(cfg); });
  } else {
    (void)product, (void)below_2p, (void)cfg;
    throw std::invalid_argument("msm_timer: the Fp2 forms are for G2");
  }
}
template <class C>
double msm_timer<C>::msm_ms_fp(fp_form form, const msm_config& cfg) {
  if constexpr (std::is_same_v<C, ec::g1_curve>) {
    return with_fp_form(form, [&]<class F>(form_tag<F>) { return impl_->template run_with<F>(cfg); });
  } else {
    (void)form, (void)cfg;
    throw std::invalid_argument("msm_timer: the Fp forms are for G1");
  }
}
template <class C>
ec::jacobian_t<C> msm_timer<C>::last_result() const {
  return impl_->result;
}

}  // namespace cuzk::gpu

#define CUZK_GPU_MSM_INSTANTIATE(C) \
  template class cuzk::gpu::msm_bases<C>; \
  template class cuzk::gpu::msm_timer<C>;

// The whole MSM over curve C in field form F (msm_detail::run and every
// kernel it launches): with EXTERN = extern, a translation unit that would
// instantiate it (msm_timer's forms) leaves it to another, which names it
// with EXTERN empty. nvcc takes ~5 CPU minutes per G1 form, and files build
// in parallel (msm_g1.cu, msm_g1_below_p.cu, msm_g1_below_2p_unfused.cu).
#define CUZK_GPU_MSM_RUN(EXTERN, C, F)                                                                        \
  EXTERN template cuzk::ec::jacobian_t<C> cuzk::gpu::msm_detail::run<C, F>(                                   \
      cuzk::gpu::msm_detail::workspace<F>&, const cuzk::gpu::affine_d<F>*, const cuzk::gpu::fr_d*, size_t, \
      const cuzk::gpu::msm_config&);
