#include "poly/ntt.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::poly {

namespace {

// A column tile holds 2^13 elements (256 KiB): a quarter of L2, so the tile and
// the leaf twiddles stay resident while its up-to-10 butterfly stages run.
constexpr size_t tile_elems = size_t(1) << 13;
// Bit reversal swaps 2^4 x 2^4 tiles: runs of 16 elements (512 B) on both sides.
constexpr uint32_t rev_tile_log = 4;
// Elements per task in the element-wise passes.
constexpr size_t chunk = size_t(1) << 12;

size_t reverse_bits(size_t v, uint32_t bits) {
  if (bits == 0) return 0;
  uint64_t r = v;
  r = ((r >> 1) & 0x5555555555555555ull) | ((r & 0x5555555555555555ull) << 1);
  r = ((r >> 2) & 0x3333333333333333ull) | ((r & 0x3333333333333333ull) << 2);
  r = ((r >> 4) & 0x0f0f0f0f0f0f0f0full) | ((r & 0x0f0f0f0f0f0f0f0full) << 4);
  r = __builtin_bswap64(r);
  return size_t(r >> (64 - bits));
}

struct twiddles_t {
  const fr_t* leaf;   // roots[leaf_log]^i, i < 2^leaf_log / 2
  const fr_t* roots;  // roots[k]: primitive 2^k-th root
  uint32_t leaf_log;
  uint32_t pass_log_max;
};

twiddles_t pick(const domain_t& d, ntt_dir dir) {
  bool fwd = dir == ntt_dir::forward;
  return {fwd ? d.leaf_tw.data() : d.leaf_tw_inv.data(), fwd ? d.roots.data() : d.roots_inv.data(), d.leaf_log,
          d.layout.pass_log_max};
}

// Column DFT size of the outer pass over 2^lm points: the levels above the leaf
// are shared evenly among the fewest passes of at most 2^pass_log_max points.
uint32_t pass_log(uint32_t lm, const twiddles_t& t) {
  uint32_t levels = lm - t.leaf_log;
  uint32_t passes = (levels + t.pass_log_max - 1) / t.pass_log_max;
  return (levels + passes - 1) / passes;
}

// Radix-2 stages over 2^k "rows" of w consecutive elements each (w = 1: a plain
// vector). Row r and row r+h meet in a butterfly with the same twiddle for all
// w columns, so the inner loop streams through both rows.
template <bool unit_rows>
void dif_rows(fr_t* x, uint32_t k, size_t w_rt, const twiddles_t& t) {
  const size_t w = unit_rows ? 1 : w_rt;
  const size_t m = size_t(1) << k;
  for (uint32_t q = k; q >= 1; --q) {
    const size_t h = size_t(1) << (q - 1);
    const size_t stride = size_t(1) << (t.leaf_log - q);
    for (size_t b = 0; b < m; b += 2 * h) {
      for (size_t j = 0; j < h; ++j) {
        fr_t* u = x + (b + j) * w;
        fr_t* v = u + h * w;
        if (j == 0) {
          for (size_t c = 0; c < w; ++c) {
            fr_t s = u[c];
            u[c] += v[c];
            v[c] = s - v[c];
          }
        } else {
          const fr_t tw = t.leaf[j * stride];
          for (size_t c = 0; c < w; ++c) {
            fr_t s = u[c];
            u[c] += v[c];
            v[c] = (s - v[c]) * tw;
          }
        }
      }
    }
  }
}

// The transpose of dif_rows: stages in reverse order with (u, v) -> (u + wv, u - wv).
template <bool unit_rows>
void dit_rows(fr_t* x, uint32_t k, size_t w_rt, const twiddles_t& t) {
  const size_t w = unit_rows ? 1 : w_rt;
  const size_t m = size_t(1) << k;
  for (uint32_t q = 1; q <= k; ++q) {
    const size_t h = size_t(1) << (q - 1);
    const size_t stride = size_t(1) << (t.leaf_log - q);
    for (size_t b = 0; b < m; b += 2 * h) {
      for (size_t j = 0; j < h; ++j) {
        fr_t* u = x + (b + j) * w;
        fr_t* v = u + h * w;
        if (j == 0) {
          for (size_t c = 0; c < w; ++c) {
            fr_t s = v[c];
            v[c] = u[c] - s;
            u[c] += s;
          }
        } else {
          const fr_t tw = t.leaf[j * stride];
          for (size_t c = 0; c < w; ++c) {
            fr_t s = v[c] * tw;
            v[c] = u[c] - s;
            u[c] += s;
          }
        }
      }
    }
  }
}

// Four-step twiddles: after the 2^s-point column DFTs (bit-reversed order, so
// row r holds frequency rev(r)), element (row r, column j) of a 2^lm-point
// sub-transform is multiplied by w_m^(j * rev(r)). Powers are chained per
// column from one pow per tile: 2^s - 2 extra multiplications per column of
// s * 2^(s-1) butterflies, instead of a 2^lm-entry table.
void twist(fr_t* buf, uint32_t s, size_t w, size_t j0, const fr_t& w_m, std::vector<fr_t>& scratch) {
  const size_t rows = size_t(1) << s;
  scratch.resize(2 * w);
  fr_t* base = scratch.data();
  fr_t* pw = base + w;
  base[0] = w_m.pow(uint64_t(j0));
  for (size_t c = 1; c < w; ++c) base[c] = base[c - 1] * w_m;
  std::copy(base, base + w, pw);
  for (size_t k = 1; k < rows; ++k) {
    fr_t* row = buf + reverse_bits(k, s) * w;
    for (size_t c = 0; c < w; ++c) {
      row[c] *= pw[c];
      if (k + 1 < rows) pw[c] *= base[c];
    }
  }
}

enum class order { dif, dit };

// One outer pass over a 2^lm-point sub-transform viewed as 2^s rows of
// m' = 2^(lm-s) columns: each tile of w adjacent columns is gathered into a
// contiguous buffer (reading w-element runs of every row), transformed, and
// written back.
template <order ord>
void column_pass(fr_t* x, uint32_t lm, uint32_t s, const twiddles_t& t) {
  const size_t rows = size_t(1) << s;
  const size_t cols = size_t(1) << (lm - s);
  const size_t w = std::min(cols, std::max<size_t>(1, tile_elems >> s));
  const fr_t w_m = t.roots[lm];
  tbb::parallel_for(tbb::blocked_range<size_t>(0, cols / w), [&](const tbb::blocked_range<size_t>& range) {
    thread_local std::vector<fr_t> buf, scratch;
    buf.resize(rows * w);
    for (size_t tile = range.begin(); tile != range.end(); ++tile) {
      const size_t j0 = tile * w;
      for (size_t r = 0; r < rows; ++r) std::copy_n(x + r * cols + j0, w, buf.data() + r * w);
      if constexpr (ord == order::dif) {
        dif_rows<false>(buf.data(), s, w, t);
        twist(buf.data(), s, w, j0, w_m, scratch);
      } else {
        twist(buf.data(), s, w, j0, w_m, scratch);
        dit_rows<false>(buf.data(), s, w, t);
      }
      for (size_t r = 0; r < rows; ++r) std::copy_n(buf.data() + r * w, w, x + r * cols + j0);
    }
  });
}

// Natural -> bit-reversed. Output position rev(k2) * m' + rev'(k1) holds
// frequency k2 + 2^s * k1, which is the bit reversal of the whole index.
void dif(fr_t* x, uint32_t lm, const twiddles_t& t) {
  if (lm <= t.leaf_log) {
    dif_rows<true>(x, lm, 1, t);
    return;
  }
  const uint32_t s = pass_log(lm, t);
  const size_t cols = size_t(1) << (lm - s);
  column_pass<order::dif>(x, lm, s, t);
  tbb::parallel_for(size_t(0), size_t(1) << s, [&](size_t r) { dif(x + r * cols, lm - s, t); });
}

// Bit-reversed -> natural: the transpose of dif, step for step in reverse.
void dit(fr_t* x, uint32_t lm, const twiddles_t& t) {
  if (lm <= t.leaf_log) {
    dit_rows<true>(x, lm, 1, t);
    return;
  }
  const uint32_t s = pass_log(lm, t);
  const size_t cols = size_t(1) << (lm - s);
  tbb::parallel_for(size_t(0), size_t(1) << s, [&](size_t r) { dit(x + r * cols, lm - s, t); });
  column_pass<order::dit>(x, lm, s, t);
}

void check_size(const domain_t& d, std::span<fr_t> x) {
  if (x.size() != d.n) {
    throw std::invalid_argument("poly::ntt: vector has " + std::to_string(x.size()) + " elements, domain has " +
                                std::to_string(d.n));
  }
}

void scale(std::span<fr_t> x, const fr_t& c) {
  tbb::parallel_for(tbb::blocked_range<size_t>(0, x.size(), chunk), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) x[i] *= c;
  });
}

}  // namespace

void ntt_nr(const domain_t& d, std::span<fr_t> x, ntt_dir dir) {
  check_size(d, x);
  dif(x.data(), d.log_n, pick(d, dir));
}

void ntt_rn(const domain_t& d, std::span<fr_t> x, ntt_dir dir) {
  check_size(d, x);
  dit(x.data(), d.log_n, pick(d, dir));
}

void ntt(const domain_t& d, std::span<fr_t> x) {
  ntt_nr(d, x, ntt_dir::forward);
  bit_reverse(x);
}

void intt(const domain_t& d, std::span<fr_t> x) {
  ntt_nr(d, x, ntt_dir::inverse);
  bit_reverse(x);
  scale(x, d.n_inv);
}

void coset_ntt(const domain_t& d, std::span<fr_t> x) {
  check_size(d, x);
  mul_by_powers(x, fr_t::one(), d.g);
  ntt(d, x);
}

void coset_intt(const domain_t& d, std::span<fr_t> x) {
  ntt_nr(d, x, ntt_dir::inverse);
  bit_reverse(x);
  mul_by_powers(x, d.n_inv, d.g_inv);
}

void bit_reverse(std::span<fr_t> x) {
  const size_t n = x.size();
  if (!std::has_single_bit(n)) {
    throw std::invalid_argument("poly::bit_reverse: size " + std::to_string(n) + " is not a power of two");
  }
  const uint32_t k = uint32_t(std::countr_zero(n));
  constexpr uint32_t b = rev_tile_log;
  if (k < 2 * b + 1) {
    for (size_t i = 0; i < n; ++i) {
      size_t j = reverse_bits(i, k);
      if (i < j) std::swap(x[i], x[j]);
    }
    return;
  }
  // Index = (hi: b bits, mid, lo: b bits); its reversal is (rev lo, rev mid, rev hi).
  // The 2^b x 2^b tile at mid and the one at rev(mid) exchange transposed.
  constexpr size_t t = size_t(1) << b;
  const uint32_t mid_bits = k - 2 * b;
  const uint32_t hi_shift = k - b;
  uint8_t rev_t[t];
  for (size_t i = 0; i < t; ++i) rev_t[i] = uint8_t(reverse_bits(i, b));
  fr_t* p = x.data();
  tbb::parallel_for(tbb::blocked_range<size_t>(0, size_t(1) << mid_bits, 16),
                    [&](const tbb::blocked_range<size_t>& range) {
                      fr_t t1[t][t], t2[t][t];
                      for (size_t m = range.begin(); m != range.end(); ++m) {
                        const size_t mr = reverse_bits(m, mid_bits);
                        if (mr < m) continue;
                        const size_t base1 = m << b, base2 = mr << b;
                        for (size_t a = 0; a < t; ++a) {
                          std::copy_n(p + ((a << hi_shift) | base1), t, t1[a]);
                          if (mr != m) std::copy_n(p + ((a << hi_shift) | base2), t, t2[a]);
                        }
                        const auto& src1 = mr != m ? t2 : t1;
                        for (size_t a = 0; a < t; ++a) {
                          fr_t* d1 = p + ((a << hi_shift) | base1);
                          fr_t* d2 = p + ((a << hi_shift) | base2);
                          for (size_t c = 0; c < t; ++c) {
                            d1[c] = src1[rev_t[c]][rev_t[a]];
                            if (mr != m) d2[c] = t1[rev_t[c]][rev_t[a]];
                          }
                        }
                      }
                    });
}

void mul_by_powers(std::span<fr_t> x, const fr_t& c, const fr_t& r) {
  tbb::parallel_for(tbb::blocked_range<size_t>(0, x.size(), chunk), [&](const tbb::blocked_range<size_t>& range) {
    fr_t p = c * r.pow(uint64_t(range.begin()));
    for (size_t i = range.begin(); i != range.end(); ++i) {
      x[i] *= p;
      p *= r;
    }
  });
}

void mul_by_powers_bit_reversed(std::span<fr_t> x, const fr_t& c, const fr_t& r) {
  const size_t n = x.size();
  if (!std::has_single_bit(n)) {
    throw std::invalid_argument("poly::mul_by_powers_bit_reversed: size " + std::to_string(n) +
                                " is not a power of two");
  }
  // Position p = (p_hi, p_lo) holds index rev(p) = (rev p_lo, rev p_hi), so
  // r^rev(p) = lo_pow[p_lo] * r^rev(p_hi): one table of 2^lo entries and one
  // pow per block, two multiplications per element.
  const uint32_t k = uint32_t(std::countr_zero(n));
  const uint32_t lo = std::min<uint32_t>(k, 10), hi = k - lo;
  const size_t block = size_t(1) << lo;
  fr_t step = r;
  for (uint32_t i = 0; i < hi; ++i) step = step.sqr();  // r^(2^hi)
  std::vector<fr_t> natural(block), lo_pow(block);
  fr_t p = c;
  for (auto& e : natural) {
    e = p;
    p *= step;
  }
  for (size_t i = 0; i < block; ++i) lo_pow[i] = natural[reverse_bits(i, lo)];
  tbb::parallel_for(size_t(0), size_t(1) << hi, [&](size_t ph) {
    const fr_t hv = r.pow(uint64_t(reverse_bits(ph, hi)));
    fr_t* xb = x.data() + ph * block;
    for (size_t i = 0; i < block; ++i) xb[i] *= lo_pow[i] * hv;
  });
}

}  // namespace cuzk::poly
