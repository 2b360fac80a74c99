// porep_compiled_t::wide_aux_bound: which aux variables the compiled rows
// force to 0 or 1 in every satisfying witness, found row by row.
//
// A row A·B = C is a quadratic in one variable x when every other variable in
// it is ONE or already known to be a bit: p(x) = (αA·x + cA)(αB·x + cB) −
// (αC·x + cC), with α the coefficients of x and c the rest, evaluated at each
// 0/1 assignment of the known bits (at most 2^4 of them) that agrees with
// their own definitions (a bit a row fixed as a function of other bits: Maj's
// b·c term is b AND c). x is a bit when, for every such assignment, p has no
// root outside {0, 1}: a linear p has its root at 0 or 1; a quadratic has a
// root at 0 or 1 and its other root (-q1/q2 or q0/q2) there too (one without
// a root at 0 or 1 is refused, though it may have no roots at all); a nonzero
// constant p means no satisfying witness takes that assignment. A p that
// vanishes identically leaves x free. That covers bellman's boolean
// constraint (1 − x)·x = 0 and the gadgets whose outputs are bits of bits
// (AND a·b = c, XOR 2a·b = a + b − c, SHA-256's Ch and Maj). The bits found
// hold in every satisfying witness by induction over the rows, so the count
// is a sound bound; it is not the tightest one (a bit fixed by a row of more
// than four other bits, or only through several rows together, is not found).
#include <array>
#include <vector>

#include "circuits/porep_compiled_t.hpp"

namespace cuzk::circuits {
namespace {

using ff::fr_t;
using R = porep_sparse_rows_t;

constexpr unsigned max_known = 4;

// A bit the rows fix as a function of at most four other bits (AND, XOR,
// Ch, ...): the other bits' variables and the function's truth table. A bit
// with no definition is free (bellman's boolean constraint).
struct def_t {
  std::array<std::uint32_t, max_known> in{};
  std::uint8_t n = 0;
  bool set = false;
  std::uint16_t table = 0;
};

// Which variables of a matrix's class space are known bits, with their definitions.
struct known_t {
  const std::vector<bool>* block_aux = nullptr;   // indexed by block aux
  const std::vector<bool>* abs_aux = nullptr;     // top-block aux
  const std::vector<bool>* window_aux = nullptr;  // window offsets known in every block
  const std::vector<def_t>* block_def = nullptr;
  const std::vector<def_t>* abs_def = nullptr;
  bool is_one(std::uint32_t v) const { return v == (std::uint32_t(R::abs_input) << R::class_shift); }
  bool is_bit(std::uint32_t v) const {
    const std::uint32_t cls = v >> R::class_shift, i = v & R::index_mask;
    const std::vector<bool>* s = cls == R::block_aux ? block_aux : cls == R::abs_aux ? abs_aux
                               : cls == R::window_aux ? window_aux : nullptr;
    return s && i < s->size() && (*s)[i];
  }
  const def_t* def(std::uint32_t v) const {
    const std::uint32_t cls = v >> R::class_shift, i = v & R::index_mask;
    const std::vector<def_t>* d = cls == R::block_aux ? block_def : cls == R::abs_aux ? abs_def : nullptr;
    return d && i < d->size() && (*d)[i].set ? &(*d)[i] : nullptr;
  }
};

// Whether assignment a of bits[0, n) agrees with the definitions of those
// bits whose inputs are all among them (a satisfying witness takes no other).
bool consistent(const std::array<std::uint32_t, max_known>& bits, unsigned n, unsigned a, const known_t& k) {
  for (unsigned b = 0; b < n; ++b) {
    const def_t* d = k.def(bits[b]);
    if (!d) continue;
    unsigned idx = 0;
    bool all = true;
    for (unsigned i = 0; i < d->n && all; ++i) {
      unsigned at = n;
      for (unsigned j = 0; j < n; ++j)
        if (bits[j] == d->in[i]) at = j;
      all = at < n;
      if (all) idx |= ((a >> at) & 1u) << i;
    }
    if (all && ((d->table >> idx) & 1u) != ((a >> b) & 1u)) return false;
  }
  return true;
}

// The variable row r forces to be a bit, or UINT32_MAX; *def its definition
// when the row fixes its value (set false when the row leaves it 0 or 1).
std::uint32_t forced_bit(const R* const m[3], std::size_t r, const porep_coeff_table_t& coeffs, const known_t& k,
                         def_t* def) {
  std::uint32_t x = UINT32_MAX;
  std::array<std::uint32_t, max_known> bits{};
  unsigned nbits = 0;
  for (int j = 0; j < 3; ++j) {
    for (std::uint32_t t = r ? m[j]->row_end[r - 1] : 0; t < m[j]->row_end[r]; ++t) {
      const std::uint32_t v = m[j]->terms[t].var;
      if (k.is_one(v)) continue;
      if (k.is_bit(v)) {
        bool seen = false;
        for (unsigned b = 0; b < nbits; ++b) seen |= bits[b] == v;
        if (seen) continue;
        if (nbits == max_known) return UINT32_MAX;
        bits[nbits++] = v;
      } else if (x == UINT32_MAX || x == v) {
        x = v;
      } else {
        return UINT32_MAX;  // two unknowns
      }
    }
  }
  if (x == UINT32_MAX) return UINT32_MAX;
  const fr_t zero = fr_t::zero();
  *def = {};
  def->in = bits;
  def->n = std::uint8_t(nbits);
  def->set = true;
  for (unsigned a = 0; a < (1u << nbits); ++a) {
    if (!consistent(bits, nbits, a, k)) continue;
    fr_t alpha[3] = {zero, zero, zero}, c[3] = {zero, zero, zero};
    for (int j = 0; j < 3; ++j) {
      for (std::uint32_t t = r ? m[j]->row_end[r - 1] : 0; t < m[j]->row_end[r]; ++t) {
        const std::uint32_t v = m[j]->terms[t].var;
        const fr_t& coeff = coeffs[m[j]->terms[t].coeff];
        if (v == x) {
          alpha[j] += coeff;
        } else if (k.is_one(v)) {
          c[j] += coeff;
        } else {
          for (unsigned b = 0; b < nbits; ++b)
            if (bits[b] == v && ((a >> b) & 1)) c[j] += coeff;
        }
      }
    }
    const fr_t q2 = alpha[0] * alpha[1], q1 = alpha[0] * c[1] + alpha[1] * c[0] - alpha[2], q0 = c[0] * c[1] - c[2];
    const fr_t p0 = q0, p1 = q2 + q1 + q0;
    if (!q2.is_zero()) {
      // A root at 0 leaves -q1/q2 as the other; a root at 1 leaves q0/q2.
      const bool ok = p0.is_zero() ? (q1.is_zero() || q1 == -q2) : p1.is_zero() && q0 == q2;
      if (!ok) return UINT32_MAX;
      const bool one_root = p0.is_zero() ? q1.is_zero() : true;  // a double root fixes x
      if (!one_root) def->set = false;
      else if (!p0.is_zero()) def->table |= std::uint16_t(1u << a);
    } else if (!q1.is_zero()) {
      if (!(p0.is_zero() || p1.is_zero())) return UINT32_MAX;
      if (!p0.is_zero()) def->table |= std::uint16_t(1u << a);
    } else if (q0.is_zero()) {
      return UINT32_MAX;  // x free under this assignment
    }
  }
  return x;
}

// Marks in `out` (indexed by the class `cls`) the variables the rows force
// to be bits, pass after pass until a pass finds none (at most four).
void find_bits(const R& a, const R& b, const R& c, const porep_coeff_table_t& coeffs, const known_t& k,
               R::var_class cls, std::vector<bool>& out, std::vector<def_t>& defs) {
  const R* const m[3] = {&a, &b, &c};
  for (int pass = 0; pass < 4; ++pass) {
    bool found = false;
    for (std::size_t r = 0; r < a.rows(); ++r) {
      def_t def;
      const std::uint32_t x = forced_bit(m, r, coeffs, k, &def);
      if (x == UINT32_MAX || (x >> R::class_shift) != cls) continue;
      const std::uint32_t i = x & R::index_mask;
      if (i < out.size() && !out[i]) out[i] = true, defs[i] = def, found = true;
    }
    if (!found) break;
  }
}

}  // namespace

std::size_t porep_compiled_t::wide_aux_bound() const {
  std::call_once(wide_bound_->once, [this] { wide_bound_->value = compute_wide_aux_bound(); });
  return wide_bound_->value;
}

std::size_t porep_compiled_t::compute_wide_aux_bound() const {
  const porep_layout_t& l = layout_;
  std::vector<bool> top(l.top.aux_end, false), block(l.block_aux, false), window(l.window_len, false);
  std::vector<def_t> top_def(top.size()), block_def(block.size());
  known_t k;
  k.abs_aux = &top;
  k.abs_def = &top_def;
  find_bits(top_.a, top_.b, top_.c, coeffs_, k, R::abs_aux, top, top_def);
  // A window offset is a bit when it is one in every block's window.
  for (std::size_t i = 0; i < l.window_len; ++i) {
    bool all = true;
    for (unsigned q = 0; q < l.challenges && all; ++q) {
      const std::size_t at = l.window_of(q) + i;
      all = at < top.size() && top[at];
    }
    window[i] = all;
  }
  k.block_aux = &block;
  k.window_aux = &window;
  k.block_def = &block_def;
  find_bits(block_.a, block_.b, block_.c, coeffs_, k, R::block_aux, block, block_def);
  std::size_t bits = 0;
  for (bool v : top) bits += v;
  std::size_t block_bits = 0;
  for (bool v : block) block_bits += v;
  return l.num_aux() - bits - block_bits * l.challenges;
}

}  // namespace cuzk::circuits
