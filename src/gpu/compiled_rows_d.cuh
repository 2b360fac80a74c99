#pragma once
// What the device's row kernels compute for one row or one variable
// (gpu/compiled_rows.cu), over plain pointers, so the same code runs on the
// host: CI checks the index logic against circuits::porep_compiled_t's own
// evaluate() without a GPU (tests/gpu/test_compiled_rows.cpp).
//   - a value of the packed aux (r1cs::compact_assignment_t's words: wide
//     bit, value bit, wide values ranked per 64-variable word);
//   - one row of A, B or C (r1cs::compiled_rows_view_t's terms) at one
//     instance of its block.
#include <cstddef>
#include <cstdint>

#include "gpu/fr_d.cuh"
#include "r1cs/compiled_rows_view_t.hpp"

namespace cuzk::gpu::rows_d {

using view_t = r1cs::compiled_rows_view_t;

struct compact_d {
  const uint64_t* wide_bits;
  const uint64_t* value_bits;
  const uint64_t* rank;
  const fr_d* wide;

  CUZK_HD bool is_wide(size_t i) const { return (wide_bits[i / 64] >> (i % 64)) & 1; }
  CUZK_HD bool bit(size_t i) const { return (value_bits[i / 64] >> (i % 64)) & 1; }
  // Index into `wide` of a wide value i.
  CUZK_HD size_t wide_index(size_t i) const {
    const uint64_t below = wide_bits[i / 64] & ((uint64_t(1) << (i % 64)) - 1);
#ifdef __CUDA_ARCH__
    return size_t(rank[i / 64]) + size_t(__popcll(below));
#else
    return size_t(rank[i / 64]) + size_t(__builtin_popcountll(below));
#endif
  }
  CUZK_HD fr_d operator[](size_t i) const {
    if (is_wide(i)) return wide[wide_index(i)];
    return bit(i) ? fr_d::one() : fr_d::zero();
  }
};

struct matrix_d {
  const uint32_t* row_end;
  const uint16_t* terms;  // 3 words per term
};

struct witness_d {
  const fr_d* inputs;
  compact_d aux;
};

// acc += coeff * x, without the product where the coefficient is +-1.
CUZK_HD void add_term(fr_d& acc, uint16_t coeff, const fr_d& x, const fr_d* coeffs) {
  if (coeff == view_t::plus_one) acc += x;
  else if (coeff == view_t::minus_one) acc -= x;
  else acc += coeffs[coeff] * x;
}

// Row r of m at the instance whose first aux, input and window aux are
// aux_base, input_base and window_base. Most values are bits: a 0 adds
// nothing and a 1 adds the coefficient itself.
CUZK_HD fr_d eval_row(const matrix_d& m, size_t r, const fr_d* coeffs, const witness_d& w, uint64_t aux_base,
                      uint64_t input_base, uint64_t window_base) {
  fr_d acc = fr_d::zero();
  const uint32_t end = m.row_end[r];
  for (uint32_t k = r ? m.row_end[r - 1] : 0; k < end; ++k) {
    const uint16_t* t = m.terms + 3 * size_t(k);
    const uint32_t var = uint32_t(t[0]) | uint32_t(t[1]) << 16;
    const uint16_t coeff = t[2];
    const uint32_t cls = var >> view_t::class_shift, index = var & view_t::index_mask;
    if (cls == 2 || cls == 3) {  // inputs: dense
      add_term(acc, coeff, w.inputs[(cls == 2 ? input_base : 0) + index], coeffs);
      continue;
    }
    const size_t i = (cls == 0 ? aux_base : cls == 4 ? window_base : 0) + index;
    if (w.aux.is_wide(i)) {
      add_term(acc, coeff, w.aux.wide[w.aux.wide_index(i)], coeffs);
    } else if (w.aux.bit(i)) {
      if (coeff == view_t::plus_one) acc += fr_d::one();
      else if (coeff == view_t::minus_one) acc -= fr_d::one();
      else acc += coeffs[coeff];
    }
  }
  return acc;
}

// a * b == c, the shortcuts of groth16::check_satisfied's row_holds.
CUZK_HD bool row_holds(const fr_d& a, const fr_d& b, const fr_d& c) {
  const fr_d zero = fr_d::zero(), one = fr_d::one();
  if (a == zero || b == zero) return c == zero;
  if (a == one) return b == c;
  if (b == one) return a == c;
  return a * b == c;
}

}  // namespace cuzk::gpu::rows_d
