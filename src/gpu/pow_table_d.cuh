#pragma once
// c·s^e for any e < 2^log_n from two small tables, lo[e mod 2^lo_bits] and
// hi[e >> lo_bits] = c·s^(2^lo_bits·i): one multiplication and 64 bytes of
// L2-resident reads instead of a 2^log_n-entry table (4 GiB at 2^27).
#include <cstdint>

#include "gpu/fr_d.cuh"
#include "gpu/fr_io.cuh"

namespace cuzk::gpu {

struct pow_table_d {
  const fr_d* lo = nullptr;
  const fr_d* hi = nullptr;
  uint32_t lo_bits = 0;

  CUZK_HD fr_d at(uint32_t e) const {
    return ldg_f(lo + (e & ((1u << lo_bits) - 1))) * ldg_f(hi + (e >> lo_bits));
  }
};

}  // namespace cuzk::gpu
