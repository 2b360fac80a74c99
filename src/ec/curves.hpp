#pragma once
// BLS12-381: G1 on E(Fp): y^2 = x^3 + 4; G2 on the sextic M-twist E'(Fp2): y^2 = x^3 + 4(u + 1).
// Both groups have prime order r (the Fr modulus); x (the curve parameter) = -0xd201000000010000.
#include "ec/affine_t.hpp"
#include "ec/jacobian_t.hpp"
#include "ec/xyzz_t.hpp"
#include "ff/ff.hpp"

namespace cuzk::ec {

using ff::fp2_t;
using ff::fp_t;
using ff::fr_t;

// |x| of the BLS parameter x = -0xd201000000010000.
inline constexpr uint64_t bls_x_abs = 0xd201000000010000;

struct g1_curve {
  using field_t = fp_t;
  static constexpr fp_t b() { return fp_t::from_u64(4); }
};
struct g2_curve {
  using field_t = fp2_t;
  static constexpr fp2_t b() { return {fp_t::from_u64(4), fp_t::from_u64(4)}; }
};

using g1_affine_t = affine_t<g1_curve>;
using g1_jacobian_t = jacobian_t<g1_curve>;
using g1_xyzz_t = xyzz_t<g1_curve>;
using g2_affine_t = affine_t<g2_curve>;
using g2_jacobian_t = jacobian_t<g2_curve>;
using g2_xyzz_t = xyzz_t<g2_curve>;

static_assert(sizeof(g1_affine_t) == 96 && sizeof(g2_affine_t) == 192);

// The standard generators (Zcash/blst/IETF pairing-friendly-curves draft).
constexpr g1_affine_t g1_generator() {
  return {*fp_t::from_hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"),
          *fp_t::from_hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1")};
}
constexpr g2_affine_t g2_generator() {
  return {{*fp_t::from_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
           *fp_t::from_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")},
          {*fp_t::from_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
           *fp_t::from_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")}};
}

}  // namespace cuzk::ec
