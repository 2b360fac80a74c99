#include "pairing/final_exponentiation.hpp"

#include "pairing/g2_prepared.hpp"

namespace cuzk::pairing {

namespace {

using ff::fp12_t;
using ff::limbs_t;

// x = 1 mod 3 for every BLS12 curve, so 3 divides x - 1 = -(|x| + 1).
static_assert((loop_param + 1) % 3 == 0);

// f^x for f in the cyclotomic subgroup, where x < 0 makes the inverse a conjugate.
fp12_t exp_by_x(const fp12_t& f) { return f.cyclotomic_pow(limbs_t<1>{loop_param}).conj(); }

// Easy part (p^6 - 1)(p^2 + 1): one inversion and Frobenius maps. The result lies
// in the cyclotomic subgroup, where inversion is conjugation.
fp12_t easy_part(const fp12_t& f) {
  fp12_t t = f.conj() * f.inverse();
  return t.frobenius_map(2) * t;
}

// Hard part, Hayashida, Hayasaka, Teruya, "Efficient final exponentiation via
// cyclotomic structure for pairings over families of elliptic curves" (eprint
// 2020/875), section 4: for BLS12
//   3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3.
// Given a = t^((x - 1)^2 / d), returns a^((x + p)(x^2 + p^2 - 1)), so that
// times t^(3/d) it is t^((p^4 - p^2 + 1)/r) for d = 3, its cube for d = 1.
// Cost: 3 exponentiations by x (63 cyclotomic squarings, 5 multiplications each).
fp12_t hard_part_tail(const fp12_t& a) {
  fp12_t b = exp_by_x(a) * a.frobenius_map(1);                 // a^(x + p)
  return exp_by_x(exp_by_x(b)) * b.frobenius_map(2) * b.conj();  // b^(x^2 + p^2 - 1)
}

}  // namespace

fp12_t final_exponentiation(const fp12_t& f) {
  fp12_t t = easy_part(f);
  // (x - 1)^2/3 = (|x| + 1) ((|x| + 1)/3): the second factor is a dense 64-bit
  // exponent, the price of exactness (about 20 % of the whole).
  fp12_t a = t.cyclotomic_pow(limbs_t<1>{(loop_param + 1) / 3});
  a = a.cyclotomic_pow(limbs_t<1>{loop_param + 1});
  return hard_part_tail(a) * t;
}

fp12_t final_exponentiation_cube(const fp12_t& f) {
  fp12_t t = easy_part(f);
  // t^((x - 1)^2) = (t^(|x| + 1))^(|x| + 1): two sparse exponents.
  fp12_t a = t.cyclotomic_pow(limbs_t<1>{loop_param + 1});
  a = a.cyclotomic_pow(limbs_t<1>{loop_param + 1});
  return hard_part_tail(a) * t.cyclotomic_sqr() * t;
}

}  // namespace cuzk::pairing
