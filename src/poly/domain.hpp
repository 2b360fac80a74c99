#pragma once
// Radix-2 evaluation domain H = <omega> of size n = 2^log_n over Fr, with the
// coset g·H (g = 7, a generator of Fr^*, as in bellman) used to divide by Z(x).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::poly {

using ff::fr_t;

// How the NTT splits a transform; tests shrink it to reach every code path at
// sizes a naive DFT can check.
struct ntt_layout {
  // Sub-transforms of 2^leaf_log elements run radix-2 entirely in cache:
  // 2^12 x 32 B = 128 KiB sits in a 1 MiB L2 alongside the twiddles.
  uint32_t leaf_log = 12;
  // Larger transforms are split into passes of at most 2^pass_log_max-point
  // column DFTs over the whole array (four-step), so a 2^22 transform reads
  // memory twice (one pass + leaves) instead of 22 times. Must be <= leaf_log.
  uint32_t pass_log_max = 10;
};

struct domain_t {
  static constexpr uint32_t max_log_n = uint32_t(fr_t::two_adicity);

  uint32_t log_n = 0;
  uint64_t n = 1;
  fr_t omega;      // primitive n-th root of unity, 7^((r-1)/n)
  fr_t omega_inv;
  fr_t n_inv;
  fr_t g;          // coset shift: fr_generator
  fr_t g_inv;
  ntt_layout layout;
  uint32_t leaf_log = 0;  // min(log_n, layout.leaf_log)

  // roots[k] = omega^(n / 2^k), the primitive 2^k-th root, for k <= log_n.
  std::vector<fr_t> roots, roots_inv;
  // leaf_tw[i] = roots[leaf_log]^i for i < 2^leaf_log / 2; every butterfly of
  // a leaf and every constant of a column DFT reads this table with a stride.
  std::vector<fr_t> leaf_tw, leaf_tw_inv;

  // Throws std::invalid_argument when log_n > 32 or the layout is inconsistent.
  explicit domain_t(uint32_t log_n, ntt_layout layout = {});

  // Smallest domain holding min_size points (bellman's EvaluationDomain::from_coeffs).
  static domain_t for_size(uint64_t min_size, ntt_layout layout = {});

  // Z(x) = x^n - 1 is the constant g^n - 1 on g·H.
  fr_t z_on_coset() const;
  fr_t z_on_coset_inv() const { return z_on_coset().inverse(); }

  // Bytes held by the twiddle tables: O(2^leaf_log), independent of n.
  size_t table_bytes() const;
};

}  // namespace cuzk::poly
