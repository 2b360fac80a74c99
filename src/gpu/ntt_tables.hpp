#pragma once
// Host copy of every table a transform of 2^log_n points needs, in one array
// for one upload; tables are referenced by offset. Header-only plain C++: the
// CUDA side uploads it, tests read it directly to emulate kernels.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ff/fr.hpp"
#include "gpu/ntt_pass.cuh"

namespace cuzk::gpu {

struct ntt_tables {
  // c·s^e = data[lo + e mod 2^lo_bits] · data[hi + (e >> lo_bits)], e < 2^log_n.
  struct pow_ref {
    size_t lo = 0, hi = 0;
    uint32_t lo_bits = 0;
  };

  uint32_t log_n;
  std::vector<ff::fr_t> data;
  pow_ref tw[2];          // [dir]: w^e, w = omega (forward) or omega^-1 (inverse)
  // [dir]: w_{2^direct_log}^e for every e < 2^direct_log, direct_log = min(log_n, 20):
  // one read instead of a product for every pass over at most 2^20 points
  // (all passes up to 2^20, all but the first above). 32 MiB per direction at most.
  static constexpr uint32_t direct_log_max = 20;
  uint32_t direct_log;
  size_t direct[2] = {};
  size_t inner[2] = {};   // [dir]: w_{2^12}^t, t < 2^11
  pow_ref coset;          // g^e: coset_ntt input scaling
  pow_ref coset_n;        // g^e / n: interpolate then move to the coset in one scaling
  pow_ref coset_inv_n;    // g^-e / n: coset_intt output scaling
  ff::fr_t n_inv, z_inv;  // 1/n and 1/(g^n - 1), Z on the coset

  explicit ntt_tables(uint32_t log_n_) : log_n(log_n_), direct_log(log_n_ < direct_log_max ? log_n_ : direct_log_max) {
    using ff::fr_t;
    const fr_t omega = ff::fr_root_of_unity(log_n);
    const fr_t g = fr_t::from_u64(ff::fr_generator);
    n_inv = fr_t::from_u64(uint64_t(1) << log_n).inverse();
    fr_t g_n = g;
    for (uint32_t i = 0; i < log_n; ++i) g_n = g_n.sqr();
    z_inv = (g_n - fr_t::one()).inverse();

    tw[0] = add_pow(omega, fr_t::one());
    tw[1] = add_pow(omega.inverse(), fr_t::one());
    const fr_t w_direct = ff::fr_root_of_unity(direct_log);
    direct[0] = add_powers(w_direct, fr_t::one(), size_t(1) << direct_log);
    direct[1] = add_powers(w_direct.inverse(), fr_t::one(), size_t(1) << direct_log);
    coset = add_pow(g, fr_t::one());
    coset_n = add_pow(g, n_inv);
    coset_inv_n = add_pow(g.inverse(), n_inv);
    const fr_t w_in = ff::fr_root_of_unity(ntt_inner_log);
    const size_t inner_count = size_t(1) << (ntt_inner_log - 1);
    inner[0] = add_powers(w_in, fr_t::one(), inner_count);
    inner[1] = add_powers(w_in.inverse(), fr_t::one(), inner_count);
  }

  // The same table with its arrays at base (data uploaded or copied there).
  pow_table_d view(const pow_ref& r, const fr_d* base) const { return {base + r.lo, base + r.hi, r.lo_bits}; }

 private:
  size_t add_powers(const ff::fr_t& s, const ff::fr_t& c, size_t count) {
    const size_t off = data.size();
    ff::fr_t p = c;
    for (size_t i = 0; i < count; ++i, p *= s) data.push_back(p);
    return off;
  }
  // Split at lo_bits = ceil(log_n / 2): at 2^27, 2^14 + 2^13 entries (768 KiB).
  pow_ref add_pow(const ff::fr_t& s, const ff::fr_t& c) {
    pow_ref r;
    r.lo_bits = (log_n + 1) / 2;
    r.lo = add_powers(s, ff::fr_t::one(), size_t(1) << r.lo_bits);
    ff::fr_t step = s;
    for (uint32_t i = 0; i < r.lo_bits; ++i) step = step.sqr();
    r.hi = add_powers(step, c, size_t(1) << (log_n - r.lo_bits));
    return r;
  }
};

}  // namespace cuzk::gpu
