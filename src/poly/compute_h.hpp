#pragma once
// Groth16 quotient H(x) = (A(x)B(x) - C(x)) / Z(x), the polynomial bellman's
// prover computes (src/groth16/prover.rs: interpolate A, B, C from their
// values on H, evaluate them on the coset g·H where Z is the nonzero constant
// g^n - 1, divide pointwise and interpolate back from g·H), in one transform
// fewer. C has degree < n, so its coset evaluation interpolates back to C
// itself: with R = (A·B) mod (x^n - g^n), the interpolant of A·B's coset
// values, bellman's H is (R - C) / (g^n - 1), for any a, b, c. So only A and B
// go to the coset and back; C needs its coefficients alone (issue 19, item 4).
// The parameters' H query holds [tau^i Z(tau) / delta] for i < n - 1, matched
// here coefficient for coefficient.
#include <span>

#include "poly/domain.hpp"

namespace cuzk::poly {

// a, b, c: A·w, B·w, C·w on H (natural order, length d.n, zero past the last
// constraint); b and c are consumed as scratch. On return a[0..n-1) holds the
// coefficients of H; a[n-1] is zero whenever A·B - C vanishes on H (a
// satisfied witness), and the prover drops it as bellman does.
// Cost: 6 transforms of n points (7 in bellman), 3 scalings, 1 bit reversal; no allocation of size n.
void compute_h(const domain_t& d, std::span<fr_t> a, std::span<fr_t> b, std::span<fr_t> c);


}  // namespace cuzk::poly
