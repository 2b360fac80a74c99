#include "poly/domain.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cuzk::poly {

namespace {

std::vector<fr_t> powers(const fr_t& base, size_t count) {
  std::vector<fr_t> v(count);
  fr_t p = fr_t::one();
  for (auto& e : v) {
    e = p;
    p *= base;
  }
  return v;
}

}  // namespace

domain_t::domain_t(uint32_t log_n_, ntt_layout layout_) : log_n(log_n_), layout(layout_) {
  if (log_n > max_log_n) {
    throw std::invalid_argument("poly::domain_t: log_n " + std::to_string(log_n) + " exceeds Fr 2-adicity 32");
  }
  if (layout.leaf_log == 0 || layout.pass_log_max == 0 || layout.pass_log_max > layout.leaf_log) {
    throw std::invalid_argument("poly::domain_t: need 0 < pass_log_max <= leaf_log");
  }
  n = uint64_t(1) << log_n;
  omega = ff::fr_root_of_unity(log_n);
  omega_inv = omega.inverse();
  n_inv = fr_t::from_u64(n).inverse();
  g = fr_t::from_u64(ff::fr_generator);
  g_inv = g.inverse();

  roots.resize(log_n + 1);
  roots_inv.resize(log_n + 1);
  roots[log_n] = omega;
  roots_inv[log_n] = omega_inv;
  for (uint32_t k = log_n; k-- > 0;) {
    roots[k] = roots[k + 1].sqr();
    roots_inv[k] = roots_inv[k + 1].sqr();
  }

  leaf_log = std::min(log_n, layout.leaf_log);
  size_t half = (size_t(1) << leaf_log) / 2;
  leaf_tw = powers(roots[leaf_log], half);
  leaf_tw_inv = powers(roots_inv[leaf_log], half);
}

domain_t domain_t::for_size(uint64_t min_size, ntt_layout layout) {
  uint32_t k = 0;
  while (k < max_log_n && (uint64_t(1) << k) < min_size) ++k;
  if ((uint64_t(1) << k) < min_size) {
    throw std::invalid_argument("poly::domain_t: " + std::to_string(min_size) + " points exceed 2^32");
  }
  return domain_t(k, layout);
}

fr_t domain_t::z_on_coset() const {
  fr_t t = g;
  for (uint32_t i = 0; i < log_n; ++i) t = t.sqr();
  return t - fr_t::one();
}

size_t domain_t::table_bytes() const {
  return sizeof(fr_t) * (roots.size() + roots_inv.size() + leaf_tw.size() + leaf_tw_inv.size());
}

}  // namespace cuzk::poly
