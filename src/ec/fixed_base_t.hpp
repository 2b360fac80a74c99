#pragma once
// Fixed-base scalar multiplication with a window table (Brickell, Gordon,
// McCurley and Wilson's idea in its simplest form): table[w][d] = d * 2^(c w) * B,
// so k * B is one mixed addition per c-bit window of k. With c = 8 a G1
// multiplication is 32 mixed additions instead of ~255 doublings and ~128
// additions; with c = 16, 16 of them. Groth16 setup does millions against
// two bases, so it sizes the window to the batch (for_batch): the table costs
// 2^c additions per window and its memory, each multiplication 256 / c.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "ec/jacobian_t.hpp"

namespace cuzk::ec {

template <class C>
class fixed_base_t {
 public:
  static constexpr size_t max_window_bits = 16;

  explicit fixed_base_t(const affine_t<C>& base, size_t window_bits = 8)
      : bits_(window_bits), windows_((256 + window_bits - 1) / window_bits) {
    if (window_bits < 1 || window_bits > max_window_bits) {
      throw std::invalid_argument("fixed_base_t: window bits must be 1..16");
    }
    // 2^(c w) * B for every window, by doublings; then each window's row in parallel.
    std::vector<jacobian_t<C>> starts(windows_);
    jacobian_t<C> w = jacobian_t<C>::from_affine(base);
    for (size_t i = 0; i < windows_; ++i) {
      starts[i] = w;
      for (size_t k = 0; k < bits_; ++k) w = w.dbl();
    }
    const size_t digits = size_t(1) << bits_;
    table_.resize(windows_ * digits);
    tbb::parallel_for(size_t(0), windows_, [&](size_t i) {
      std::vector<jacobian_t<C>> row(digits);
      row[0] = jacobian_t<C>::infinity();
      for (size_t d = 1; d < digits; ++d) row[d] = row[d - 1] + starts[i];
      auto aff = batch_to_affine(std::span<const jacobian_t<C>>(row));
      std::copy(aff.begin(), aff.end(), table_.begin() + std::ptrdiff_t(i * digits));
    });
  }

  // The window that makes `n` multiplications cheapest, table included:
  // minimizes windows * (2^c + n) additions, c at most 16 (a G2 table of
  // 16-bit windows is 192 MiB).
  static size_t window_bits_for(size_t n) {
    size_t best = 1;
    double best_cost = 0;
    for (size_t c = 1; c <= max_window_bits; ++c) {
      const double cost = double((256 + c - 1) / c) * (double(size_t(1) << c) + double(n));
      if (c == 1 || cost < best_cost) best = c, best_cost = cost;
    }
    return best;
  }
  static fixed_base_t for_batch(const affine_t<C>& base, size_t n) { return fixed_base_t(base, window_bits_for(n)); }

  size_t window_bits() const { return bits_; }

  // k is a canonical little-endian 256-bit scalar.
  jacobian_t<C> mul(const ff::limbs_t<4>& k) const {
    jacobian_t<C> acc = jacobian_t<C>::infinity();
    for (size_t i = 0; i < windows_; ++i)
      if (const uint64_t d = digit(k, i)) acc = acc.add_mixed(table_[(i << bits_) + d]);
    return acc;
  }
  template <class Scalar>
  jacobian_t<C> mul(const Scalar& s) const { return mul(s.to_canonical()); }

  // out[i] = scalars[i] * B in affine form (infinity as (0, 0)), the same
  // points as mul(). Window by window, every accumulator takes its entry by
  // an affine addition whose inversion is shared with the others'
  // (Montgomery's trick): about 6 products per addition where a mixed
  // Jacobian one costs 11, and no normalization at the end. One call per
  // few thousand scalars amortizes each window's inversion.
  template <class Scalar>
  void mul_batch(std::span<const Scalar> scalars, std::span<affine_t<C>> out) const {
    using F = typename C::field_t;
    if (out.size() != scalars.size()) throw std::invalid_argument("fixed_base_t::mul_batch: size mismatch");
    const size_t n = scalars.size();
    std::vector<ff::limbs_t<4>> k(n);
    for (size_t i = 0; i < n; ++i) k[i] = scalars[i].to_canonical();
    std::vector<uint8_t> live(n, 0);  // out[i] holds a finite partial sum
    std::vector<F> dx;
    std::vector<std::pair<size_t, const affine_t<C>*>> pending;
    dx.reserve(n);
    pending.reserve(n);
    for (size_t w = 0; w < windows_; ++w) {
      dx.clear();
      pending.clear();
      for (size_t i = 0; i < n; ++i) {
        const uint64_t d = digit(k[i], w);
        if (!d) continue;
        const affine_t<C>& t = table_[(w << bits_) + d];
        if (!live[i]) {
          out[i] = t;
          live[i] = 1;
        } else if (out[i].x == t.x) {
          // The same point (double it) or its negation (infinity). Scalars
          // below r never get here: a partial sum is below 2^(c w).
          const jacobian_t<C> sum = jacobian_t<C>::from_affine(out[i]).add_mixed(t);
          live[i] = !sum.is_inf();
          out[i] = live[i] ? sum.to_affine() : affine_t<C>::infinity();
        } else {
          dx.push_back(t.x - out[i].x);
          pending.emplace_back(i, &t);
        }
      }
      ff::batch_inverse(std::span<F>(dx));
      for (size_t j = 0; j < pending.size(); ++j) {
        auto& [i, t] = pending[j];
        affine_t<C>& a = out[i];
        const F lambda = (t->y - a.y) * dx[j];
        const F x3 = lambda.sqr() - a.x - t->x;
        a.y = lambda * (a.x - x3) - a.y;
        a.x = x3;
      }
    }
    for (size_t i = 0; i < n; ++i)
      if (!live[i]) out[i] = affine_t<C>::infinity();
  }

 private:
  // Window w of k: bits [c w, c w + c), across a limb boundary where it straddles one.
  uint64_t digit(const ff::limbs_t<4>& k, size_t w) const {
    const size_t bit = w * bits_, limb = bit / 64, shift = bit % 64;
    uint64_t d = k[limb] >> shift;
    if (shift + bits_ > 64 && limb + 1 < 4) d |= k[limb + 1] << (64 - shift);
    return d & ((uint64_t(1) << bits_) - 1);
  }

  size_t bits_, windows_;
  std::vector<affine_t<C>> table_;
};

}  // namespace cuzk::ec
