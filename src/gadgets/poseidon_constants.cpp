#include "gadgets/poseidon_constants.hpp"

#include <array>
#include <climits>
#include <cmath>
#include <algorithm>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

namespace cuzk::gadgets {

using ff::fr_t;

namespace {

using matrix_t = std::vector<std::vector<fr_t>>;

// ---- round numbers (neptune round_numbers.rs) ------------------------------
// The paper's four bounds on R_F for M = 128-bit security, evaluated in f32
// with n = 256 "prime bits" (neptune rounds BLS12-381's 255 up on purpose).
bool round_numbers_are_secure(std::size_t t_, std::size_t rf, std::size_t rp_) {
  const float rp = float(rp_), t = float(t_), n = 256.0f, m = 128.0f;
  const float rf_stat = m <= (n - 3.0f) * (t + 1.0f) ? 6.0f : 10.0f;
  const float rf_interp = 0.43f * m + std::log2(t) - rp;
  const float rf_grob_1 = 0.21f * n - rp;
  const float rf_grob_2 = (0.14f * n - 1.0f - rp) / (t - 1.0f);
  std::size_t rf_max = 0;
  for (float x : {rf_stat, rf_interp, rf_grob_1, rf_grob_2}) {
    // Rust's `ceil(x) as usize` saturates negative values to 0.
    float c = std::ceil(x);
    rf_max = std::max(rf_max, c <= 0.0f ? std::size_t(0) : std::size_t(c));
  }
  return rf >= rf_max;
}

// ---- Grain LFSR (neptune round_constants.rs) --------------------------------
class grain_lfsr {
 public:
  grain_lfsr(std::size_t width, std::size_t rf, std::size_t rp) {
    std::size_t at = 0;
    auto put = [&](std::uint64_t value, int n_bits) {
      for (int i = n_bits - 1; i >= 0; --i) bits_[at++] = std::uint8_t(value >> i & 1);
    };
    // field = 1 (prime field); S-box field = 1 as neptune passes it, even
    // though its S-box is x^5; n = 255 (unlike the round-number search).
    put(1, 2), put(1, 4), put(255, 12), put(width, 12), put(rf, 10), put(rp, 10), put((1u << 30) - 1, 30);
    for (int i = 0; i < 160; ++i) step();
  }

  // Self-shrinking: pairs (b1, b2), emit b2 when b1 = 1.
  bool next_bit() {
    for (;;) {
      bool b1 = step(), b2 = step();
      if (b1) return b2;
    }
  }

  // 255 emitted bits read MSB-first, redrawn while >= r.
  fr_t next_field_element() {
    for (;;) {
      ff::limbs_t<4> x{};
      for (int i = 254; i >= 0; --i)
        if (next_bit()) x[i / 64] |= std::uint64_t(1) << (i % 64);
      if (auto f = fr_t::from_canonical(x)) return *f;
    }
  }

 private:
  bool step() {
    auto s = [&](int k) { return bits_[(head_ + k) % 80]; };
    std::uint8_t nb = s(62) ^ s(51) ^ s(38) ^ s(23) ^ s(13) ^ s(0);
    bits_[head_] = nb;  // the oldest bit s[0] leaves, the new one enters at the end
    head_ = (head_ + 1) % 80;
    return nb;
  }
  std::array<std::uint8_t, 80> bits_{};
  std::size_t head_ = 0;
};

// ---- small dense linear algebra over Fr -------------------------------------
matrix_t identity(std::size_t n) {
  matrix_t m(n, std::vector<fr_t>(n, fr_t::zero()));
  for (std::size_t i = 0; i < n; ++i) m[i][i] = fr_t::one();
  return m;
}

matrix_t mat_mul(const matrix_t& a, const matrix_t& b) {
  std::size_t n = a.size(), k = b.size(), m = b[0].size();
  matrix_t c(n, std::vector<fr_t>(m, fr_t::zero()));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t l = 0; l < k; ++l)
      for (std::size_t j = 0; j < m; ++j) c[i][j] += a[i][l] * b[l][j];
  return c;
}

// Gauss-Jordan; every matrix inverted here is a Cauchy matrix or a minor of a
// product of them, so a zero pivot column means corrupt input.
matrix_t mat_inverse(matrix_t a) {
  std::size_t n = a.size();
  matrix_t inv = identity(n);
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t p = c;
    while (p < n && a[p][c].is_zero()) ++p;
    if (p == n) throw std::logic_error("poseidon: singular matrix in parameter derivation");
    std::swap(a[p], a[c]), std::swap(inv[p], inv[c]);
    fr_t s = a[c][c].inverse();
    for (std::size_t j = 0; j < n; ++j) a[c][j] *= s, inv[c][j] *= s;
    for (std::size_t r = 0; r < n; ++r) {
      if (r == c || a[r][c].is_zero()) continue;
      fr_t f = a[r][c];
      for (std::size_t j = 0; j < n; ++j) a[r][j] -= f * a[c][j], inv[r][j] -= f * inv[c][j];
    }
  }
  return inv;
}

// Row vector times matrix.
std::vector<fr_t> vec_mul(const std::vector<fr_t>& v, const matrix_t& m) {
  std::vector<fr_t> out(m[0].size(), fr_t::zero());
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = 0; j < out.size(); ++j) out[j] += v[i] * m[i][j];
  return out;
}

// X-hat: X without row 0 and column 0.
matrix_t minor00(const matrix_t& x) {
  matrix_t m;
  for (std::size_t i = 1; i < x.size(); ++i) m.emplace_back(x[i].begin() + 1, x[i].end());
  return m;
}

// neptune mds.rs factor_to_sparse_matrix: X = X' * X'' with
// X' = [[1, 0], [0, X-hat]] and X'' = row 0 of X, then rows [w-hat_{i-1}, e_i],
// where w_k = X[k+1][0] and w-hat = w * X-hat^-1.
std::pair<matrix_t, poseidon_sparse_matrix_t> factor_to_sparse(const matrix_t& x) {
  std::size_t t = x.size();
  matrix_t hat = minor00(x);
  matrix_t prime = identity(t);
  for (std::size_t i = 1; i < t; ++i)
    for (std::size_t j = 1; j < t; ++j) prime[i][j] = x[i][j];
  std::vector<fr_t> w(t - 1);
  for (std::size_t k = 0; k + 1 < t; ++k) w[k] = x[k + 1][0];
  std::vector<fr_t> w_hat = vec_mul(w, mat_inverse(hat));
  poseidon_sparse_matrix_t sp;
  sp.col0.push_back(x[0][0]);
  sp.col0.insert(sp.col0.end(), w_hat.begin(), w_hat.end());
  sp.row0.assign(x[0].begin() + 1, x[0].end());
  return {prime, sp};
}

std::vector<fr_t> row_of(const std::vector<fr_t>& flat, std::size_t row, std::size_t t) {
  return {flat.begin() + row * t, flat.begin() + (row + 1) * t};
}

// neptune preprocessing.rs compress_round_constants: keys of full rounds are
// moved behind the mix (k * M^-1), and the R_P partial-round keys are folded
// backwards into one vector plus one scalar per partial round.
std::vector<fr_t> compress_round_constants(const poseidon_params_t& p, const matrix_t& m_inv) {
  const std::size_t t = p.width, h = p.full_rounds / 2, rp = p.partial_rounds;
  auto rc = [&](std::size_t round) { return row_of(p.round_constants, round, t); };
  std::vector<fr_t> out = rc(0);
  auto append = [&](const std::vector<fr_t>& v) { out.insert(out.end(), v.begin(), v.end()); };
  for (std::size_t i = 1; i < h; ++i) append(vec_mul(rc(i), m_inv));
  std::vector<fr_t> acc = rc(h + rp), partial_keys;
  for (std::size_t i = 0; i < rp; ++i) {
    std::vector<fr_t> u = vec_mul(acc, m_inv);
    partial_keys.push_back(u[0]);
    u[0] = fr_t::zero();
    acc = rc(h + rp - 1 - i);
    for (std::size_t j = 0; j < t; ++j) acc[j] += u[j];
  }
  append(vec_mul(acc, m_inv));
  out.insert(out.end(), partial_keys.rbegin(), partial_keys.rend());
  for (std::size_t i = 1; i < h; ++i) append(vec_mul(rc(h + rp + i), m_inv));
  return out;
}

}  // namespace

std::pair<std::size_t, std::size_t> poseidon_round_numbers(std::size_t t) {
  // A literal restatement of neptune's search, including its quirk: the
  // margin is added to the loop variable rf_test itself, so later R_P
  // candidates in the same outer iteration are tested with the raised R_F.
  std::size_t rf = 0, rp = 0, best = SIZE_MAX;
  for (std::size_t rf_outer = 2; rf_outer <= 1000; rf_outer += 2) {
    std::size_t rf_test = rf_outer;
    for (std::size_t rp_candidate = 4; rp_candidate < 200; ++rp_candidate) {
      if (!round_numbers_are_secure(t, rf_test, rp_candidate)) continue;
      rf_test += 2;
      std::size_t rp_test = std::size_t(std::ceil(1.075f * float(rp_candidate)));
      std::size_t cost = t * rf_test + rp_test;
      if (cost < best || (cost == best && rf_test < rf)) rf = rf_test, rp = rp_test, best = cost;
    }
  }
  return {rf, rp};
}

poseidon_params_t make_poseidon_params(std::size_t arity) {
  if (arity == 0 || arity > 64) throw std::invalid_argument("poseidon: arity " + std::to_string(arity) + " out of range");
  poseidon_params_t p;
  p.arity = arity;
  p.width = arity + 1;
  const std::size_t t = p.width;
  std::tie(p.full_rounds, p.partial_rounds) = poseidon_round_numbers(t);
  // HashType::MerkleTree: tag 2^arity - 1 (neptune hash_type.rs).
  p.domain_tag = arity >= 64 ? -fr_t::one() : fr_t::from_u64((std::uint64_t(1) << arity) - 1);

  grain_lfsr grain(t, p.full_rounds, p.partial_rounds);
  for (std::size_t i = 0; i < p.total_rounds() * t; ++i) p.round_constants.push_back(grain.next_field_element());

  matrix_t m(t, std::vector<fr_t>(t));
  for (std::size_t i = 0; i < t; ++i)
    for (std::size_t j = 0; j < t; ++j) m[i][j] = fr_t::from_u64(i + j + t).inverse();
  matrix_t m_inv = mat_inverse(m);
  for (std::size_t i = 0; i < t; ++i) {
    p.mds.insert(p.mds.end(), m[i].begin(), m[i].end());
    p.mds_inverse.insert(p.mds_inverse.end(), m_inv[i].begin(), m_inv[i].end());
  }

  p.compressed_constants = compress_round_constants(p, m_inv);

  // neptune mds.rs factor_to_sparse_matrixes: C_0 = M, C_{k+1} = M * C_k';
  // the last C is the pre-sparse matrix, the C_k'' are used in reverse.
  matrix_t cur = m;
  for (std::size_t k = 0; k < p.partial_rounds; ++k) {
    auto [prime, sp] = factor_to_sparse(cur);
    p.sparse.push_back(std::move(sp));
    cur = mat_mul(m, prime);
  }
  std::reverse(p.sparse.begin(), p.sparse.end());
  for (const auto& row : cur) p.pre_sparse.insert(p.pre_sparse.end(), row.begin(), row.end());
  return p;
}

const poseidon_params_t& poseidon_gen_randomness_params() {
  static const poseidon_params_t p = [] {
    poseidon_params_t q = poseidon_params(2);
    q.domain_tag = fr_t::from_u64(std::uint64_t(1) << 40);
    return q;
  }();
  return p;
}

const poseidon_params_t& poseidon_params(std::size_t arity) {
  // One slot per supported arity, filled once; call_once keeps the hot path
  // (every native tree node) free of locks after the first call.
  static constexpr std::array<std::size_t, 4> supported = {2, 4, 8, 11};
  static std::array<std::once_flag, 4> once;
  static std::array<std::optional<poseidon_params_t>, 4> slots;
  auto it = std::find(supported.begin(), supported.end(), arity);
  if (it == supported.end()) {
    throw std::invalid_argument("poseidon_params: arity " + std::to_string(arity) +
                                " is not one Filecoin uses (2, 4, 8, 11)");
  }
  std::size_t k = std::size_t(it - supported.begin());
  std::call_once(once[k], [&] { slots[k] = make_poseidon_params(arity); });
  return *slots[k];
}

}  // namespace cuzk::gadgets
