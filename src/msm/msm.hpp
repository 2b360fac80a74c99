#pragma once
// Public header of the msm layer: multi-scalar multiplication on the CPU for
// G1 and G2 of BLS12-381, multithreaded with oneTBB in the caller's task arena
// (wrap a call in tbb::task_arena(k).execute(...) to bound its threads).
//
// msm splits the scalars first (bit_split::automatic): 0 is dropped, 1 goes to
// an affine batch-addition sum of its bases, and only the rest go through
// Pippenger (signed c-bit windows, XYZZ buckets, running-sum reduction), whose
// window width and task split come from the count of the rest and the threads.
//
// Preconditions, checked (std::invalid_argument): equal lengths of bases and
// scalars (or density bits and scalars, and density count and bases), and
// canonical scalars below r. Bases at infinity are allowed anywhere. Bases must
// be on the curve (not checked: parameter loading does that once).
//
// Implemented for ec::g1_curve and ec::g2_curve (explicit instantiations in msm.cpp).
#include <span>
#include <vector>

#include "ec/curves.hpp"
#include "msm/density.hpp"
#include "msm/msm_options.hpp"
#include "msm/signed_digits.hpp"

namespace cuzk::msm {

// sum_i scalars[i] * bases[i].
template <class C>
ec::jacobian_t<C> msm(std::span<const ec::affine_t<C>> bases, std::span<const ff::fr_t> scalars,
                      const msm_options& opt = {});
// The same on canonical scalars (see to_canonical), so that a caller running
// several MSMs over one assignment converts it once.
template <class C>
ec::jacobian_t<C> msm(std::span<const ec::affine_t<C>> bases, std::span<const scalar_limbs_t> scalars,
                      const msm_options& opt = {});

// Groth16 A / B queries: scalars has one entry per variable, bases one per set
// bit of density, in order; the scalar of the k-th set bit pairs with bases[k].
template <class C>
ec::jacobian_t<C> msm_dense(std::span<const ec::affine_t<C>> bases, std::span<const ff::fr_t> scalars,
                            density_view density, const msm_options& opt = {});
template <class C>
ec::jacobian_t<C> msm_dense(std::span<const ec::affine_t<C>> bases, std::span<const scalar_limbs_t> scalars,
                            density_view density, const msm_options& opt = {});

// sum_i bases[i] (affine batch addition, parallel).
template <class C>
ec::jacobian_t<C> sum_bases(std::span<const ec::affine_t<C>> bases);

// Montgomery -> canonical limbs, parallel.
std::vector<scalar_limbs_t> to_canonical(std::span<const ff::fr_t> scalars);

}  // namespace cuzk::msm
