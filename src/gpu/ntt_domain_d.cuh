#pragma once
// Device copy of ntt_tables for one size, built once per size and device and
// kept for the life of the process (a few MiB even at 2^27: every table is
// two-level, see pow_table_d).
#include <cstdint>

#include "gpu/device_buffer.cuh"
#include "gpu/fr_d.cuh"
#include "gpu/pow_table_d.cuh"

namespace cuzk::gpu {

struct ntt_domain_d {
  uint32_t log_n = 0;
  pow_table_d tw[2];        // [dir]: w^e, w = omega (forward) or omega^-1 (inverse)
  const fr_d* inner[2];     // [dir]: w_{2^12}^t or its inverse
  const fr_d* direct[2];    // [dir]: w_{2^direct_log}^e, every e
  uint32_t direct_log = 0;
  pow_table_d coset;        // g^e
  pow_table_d coset_n;      // g^e / n
  pow_table_d coset_inv_n;  // g^-e / n
  fr_d n_inv;
  fr_d z_inv;               // 1 / (g^n - 1)

  device_buffer<fr_d> storage;
};

// The tables of 2^log_n on the current device; built on first use (thread-safe), never freed.
const ntt_domain_d& ntt_domain(uint32_t log_n);

}  // namespace cuzk::gpu
