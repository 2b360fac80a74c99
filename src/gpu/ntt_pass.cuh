#pragma once
// One pass of a multi-pass radix-2 NTT: a block loads a tile into shared
// memory, runs k butterfly levels on it, applies the twiddles that link this
// pass to the next (four-step, Bailey 1990 "FFTs in external or hierarchical
// memory") and writes the tile back in place.
//
// Index bits of a pass: [lo, lo+k) are the butterfly bits (the column of a
// four-step split of the current sub-transform of 2^(lo+k) points, stride
// 2^lo), [0, c) are batch bits kept in the tile so that global accesses are
// runs of 2^c consecutive elements (c = 0 only for the lowest pass, whose
// columns are contiguous), and the remaining bits select the block.
//
// DIF (natural in, bit-reversed out) runs passes from the top bits down: levels
// from the widest, then the inter-pass twiddle w_{2^(lo+k)}^(j2·rev_k(j1))
// at store (j1: butterfly bits, j2: the bits below). DIT (bit-reversed in,
// natural out) is its transpose: passes from the bottom up, the same twiddle
// at load, levels from the narrowest, butterflies (a + w·b, a - w·b).
//
// Costs per element and pass: (k-1)/2 multiplications in butterflies (the
// narrowest level has w = 1; with c >= 3 the butterflies with w = 1 of every
// level skip theirs too, ~1/2 per element), 1 for the inter-pass twiddle (2 when the
// sub-transform exceeds 2^20 points and the twiddle is a table product),
// 2 for a fused scale_op.
//
// The per-element steps are host-device functions over any tile type with
// get(i)/put(i, x): the kernel runs them with barriers between the phases,
// and tests run them on the host, block after block, to check the indexing.
#include <cstdint>

#include "gpu/fr_d.cuh"
#include "gpu/fr_io.cuh"
#include "gpu/pow_table_d.cuh"
#include "gpu/scale_op.cuh"

namespace cuzk::gpu {

// Butterflies inside a tile read w_{2^ntt_inner_log}^t, t < 2^(ntt_inner_log-1):
// the root of every level of every pass, indexed with a stride.
inline constexpr uint32_t ntt_inner_log = 12;

struct ntt_pass {
  fr_d* data;
  uint32_t log_n;
  uint32_t lo, k, c;   // butterfly bits [lo, lo+k), batch bits [0, c); k + c <= tile_log <= 12, c <= lo
  const fr_d* inner;   // w_{2^12}^t, t < 2^11
  pow_table_d tw;      // w_n^e
  const fr_d* direct;  // w_{2^direct_log}^e, every e: used when the sub-transform fits
  uint32_t direct_log;
  scale_op pre;        // at load (first pass of a transform)
  scale_op post;       // at store (last pass)

  CUZK_HD uint32_t tile_size() const { return 1u << (k + c); }
  CUZK_HD uint32_t blocks() const { return 1u << (log_n - k - c); }

  // Index of element 0 of block bid's tile.
  CUZK_HD uint32_t block_base(uint32_t bid) const {
    const uint32_t between = lo - c;  // bits between the batch and the butterfly bits
    return ((bid & ((1u << between) - 1)) << c) | ((bid >> between) << (lo + k));
  }

  // Tile slot i holds butterfly index g = i >> c of batch q = i mod 2^c.
  CUZK_HD uint32_t position(uint32_t base, uint32_t i) const { return base | ((i >> c) << lo) | (i & ((1u << c) - 1)); }

  // w_{2^(lo+k)}^(j2·rev_k(j1)) for tile slot i: one read when 2^(lo+k)
  // points fit the direct table, else a two-table product.
  CUZK_HD fr_d twiddle(uint32_t base, uint32_t i) const {
    const uint32_t j2 = (base & ((1u << lo) - 1)) | (i & ((1u << c) - 1));
    const uint32_t e = j2 * bit_rev(i >> c, k);
    if (lo + k <= direct_log) return ldg_f(direct + (e << (direct_log - lo - k)));
    return tw.at(e << (log_n - lo - k));
  }

  template <bool DIT, class Tile>
  CUZK_HD void load(const Tile& t, uint32_t base, uint32_t i) const {
    const uint32_t pos = position(base, i);
    fr_d x = load_f(data + pos);
    if (pre.kind != scale_op::none) x = pre.apply(x, pos, log_n);
    if (DIT && lo != 0) x = x * twiddle(base, i);
    t.put(i, x);
  }

  // Butterfly b (< tile_size / 2) of the level with span 2^lh: batch q,
  // group g, twiddle index j (w^0 = 1 needs no product). With c >= 3 the
  // twiddle index takes the top bits of b, so consecutive butterflies share
  // it and whole warps skip the product where j = 0 (a fraction 1/2^lh of
  // each level); 8 consecutive batches keep a warp's 16-byte shared-memory
  // accesses free of bank conflicts. With c < 3 that order would conflict,
  // so j takes the low bits of b's group part (j = 0 is then skipped by
  // single lanes only, which saves nothing).
  template <bool DIT, class Tile>
  CUZK_HD void butterfly(const Tile& t, uint32_t lh, uint32_t b) const {
    const uint32_t h = 1u << lh;
    const uint32_t q = b & ((1u << c) - 1);
    uint32_t j, g;
    if (c >= 3) {
      const uint32_t group_log = k - 1 - lh;
      g = (b >> c) & ((1u << group_log) - 1);
      j = b >> (c + group_log);
    } else {
      const uint32_t u = b >> c;
      j = u & (h - 1);
      g = u >> lh;
    }
    const uint32_t s0 = (((g << (lh + 1)) | j) << c) | q, s1 = s0 + (h << c);
    const fr_d x = t.get(s0);
    fr_d y = t.get(s1);
    if constexpr (DIT) {
      if (j != 0) y = y * ldg_f(inner + (j << (ntt_inner_log - 1 - lh)));
      t.put(s0, x + y);
      t.put(s1, x - y);
    } else {
      fr_d d = x - y;
      if (j != 0) d = d * ldg_f(inner + (j << (ntt_inner_log - 1 - lh)));
      t.put(s0, x + y);
      t.put(s1, d);
    }
  }

  template <bool DIT, class Tile>
  CUZK_HD void store(const Tile& t, uint32_t base, uint32_t i) const {
    const uint32_t pos = position(base, i);
    fr_d x = t.get(i);
    if (!DIT && lo != 0) x = x * twiddle(base, i);
    if (post.kind != scale_op::none) x = post.apply(x, pos, log_n);
    store_f(data + pos, x);
  }

  // Span exponent of level `level` in execution order.
  template <bool DIT>
  CUZK_HD uint32_t level_span_log(uint32_t level) const {
    return DIT ? level : k - 1 - level;
  }
};

#if defined(__CUDACC__)

// The tile as two planes of 16-byte halves: a warp reading 32 consecutive
// elements issues two LDS.128 that each cover 512 contiguous bytes, the
// minimum of 4 shared-memory wavefronts, with no bank conflict.
template <uint32_t TILE_LOG>
struct ntt_tile_smem {
  static constexpr uint32_t tile = 1u << TILE_LOG;
  static constexpr uint32_t bytes = tile * uint32_t(sizeof(fr_d));

  uint4* s;

  __device__ __forceinline__ fr_d get(uint32_t i) const {
    const uint4 a = s[i], b = s[tile + i];
    fr_d x;
    x.l[0] = a.x, x.l[1] = a.y, x.l[2] = a.z, x.l[3] = a.w;
    x.l[4] = b.x, x.l[5] = b.y, x.l[6] = b.z, x.l[7] = b.w;
    return x;
  }
  __device__ __forceinline__ void put(uint32_t i, const fr_d& x) const {
    s[i] = make_uint4(x.l[0], x.l[1], x.l[2], x.l[3]);
    s[tile + i] = make_uint4(x.l[4], x.l[5], x.l[6], x.l[7]);
  }
};

template <uint32_t TILE_LOG, uint32_t THREADS, bool DIT>
__global__ void __launch_bounds__(THREADS) ntt_pass_kernel(const ntt_pass p) {
  static_assert(TILE_LOG <= ntt_inner_log);
  extern __shared__ uint4 smem_halves[];
  const ntt_tile_smem<TILE_LOG> tile{smem_halves};
  const uint32_t base = p.block_base(blockIdx.x);
  const uint32_t size = p.tile_size();

  for (uint32_t i = threadIdx.x; i < size; i += THREADS) p.load<DIT>(tile, base, i);
  __syncthreads();
  for (uint32_t level = 0; level < p.k; ++level) {
    const uint32_t lh = p.level_span_log<DIT>(level);
    for (uint32_t b = threadIdx.x; b < size / 2; b += THREADS) p.butterfly<DIT>(tile, lh, b);
    __syncthreads();
  }
  for (uint32_t i = threadIdx.x; i < size; i += THREADS) p.store<DIT>(tile, base, i);
}

#endif  // __CUDACC__

}  // namespace cuzk::gpu
