#pragma once
// Elementwise scaling folded into the first or last pass of a transform, so
// coset shifts and 1/n cost no extra pass over memory: x[pos] *= c, or
// x[pos] *= table(e) with e = pos or e = bit_reverse(pos) (for data held in
// bit-reversed order, where position pos holds coefficient bit_reverse(pos)).
#include <cstdint>

#include "gpu/pow_table_d.cuh"

namespace cuzk::gpu {

struct scale_op {
  enum kind_t : uint32_t { none, constant, powers };
  kind_t kind = none;
  uint32_t bit_reversed = 0;
  fr_d c;
  pow_table_d table;

  static scale_op by_constant(const fr_d& c) {
    scale_op s;
    s.kind = constant;
    s.c = c;
    return s;
  }
  static scale_op by_powers(const pow_table_d& t, bool bit_reversed) {
    scale_op s;
    s.kind = powers;
    s.table = t;
    s.bit_reversed = bit_reversed;
    return s;
  }

  CUZK_HD fr_d apply(const fr_d& x, uint32_t pos, uint32_t log_n) const {
    if (kind == constant) return x * c;
    return x * table.at(bit_reversed ? bit_rev(pos, log_n) : pos);
  }
};

}  // namespace cuzk::gpu
