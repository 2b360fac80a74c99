#pragma once
// Final exponentiation: maps a Miller-loop value to the pairing value in GT.
#include "ff/fp12.hpp"

namespace cuzk::pairing {

// f^((p^12 - 1) / r) exactly: the textbook reduced pairing.
ff::fp12_t final_exponentiation(const ff::fp12_t& f);

// final_exponentiation(f)^3: the value blst, zkcrypto/bellman and noble return
// (their hard part uses the exponent 3 (p^4 - p^2 + 1)/r). Use it wherever GT
// bytes must match those libraries. Since gcd(3, r) = 1 it is 1 exactly when
// final_exponentiation(f) is, and it is about 15 % cheaper.
ff::fp12_t final_exponentiation_cube(const ff::fp12_t& f);

}  // namespace cuzk::pairing
