#include "pairing/miller_loop.hpp"

#include <vector>

namespace cuzk::pairing {

fp12_t multi_miller_loop(std::span<const prepared_term_t> terms) {
  struct active_t {
    ff::fp_t x, y;
    const line_t* lines;
  };
  std::vector<active_t> act;
  act.reserve(terms.size());
  for (const auto& [p, q] : terms) {
    if (!p.is_inf() && !q->is_inf()) act.push_back({p.x, p.y, q->lines().data()});
  }
  fp12_t f = fp12_t::one();
  if (act.empty()) return f;

  auto mul_lines = [&](size_t k) {
    for (const auto& a : act) {
      const line_t& l = a.lines[k];
      f = f.mul_by_014(l.c0, l.cx * a.x, l.cy * a.y);
    }
  };
  size_t k = 0;
  for (size_t i = n_loop_bits; i-- > 0;) {
    if (i + 1 != n_loop_bits) f = f.sqr();  // f is still 1 on the first bit
    mul_lines(k++);
    if ((loop_param >> i) & 1) mul_lines(k++);
  }
  // x < 0: f_{x,Q} = 1 / (f_{|x|,Q} v_{[|x|]Q}); the vertical line lies in a proper
  // subfield and the inverse equals the conjugate after the final exponentiation.
  return f.conj();
}

fp12_t multi_miller_loop(std::span<const affine_term_t> terms) {
  std::vector<g2_prepared_t> prep;
  prep.reserve(terms.size());
  std::vector<prepared_term_t> t;
  t.reserve(terms.size());
  for (const auto& [p, q] : terms) {
    // Skip the preparation work when P is at infinity.
    prep.push_back(p.is_inf() ? g2_prepared_t{} : g2_prepared_t{q});
    t.emplace_back(p, &prep.back());
  }
  return multi_miller_loop(t);
}

fp12_t miller_loop(const ec::g1_affine_t& p, const g2_prepared_t& q) {
  prepared_term_t t{p, &q};
  return multi_miller_loop(std::span<const prepared_term_t>(&t, 1));
}

fp12_t miller_loop(const ec::g1_affine_t& p, const ec::g2_affine_t& q) {
  return miller_loop(p, g2_prepared_t{q});
}

}  // namespace cuzk::pairing
