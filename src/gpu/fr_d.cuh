#pragma once
// BLS12-381 scalar field on the device: 8 x 32-bit limbs, bytes identical to ff::fr_t.
#include "ff/fr.hpp"
#include "gpu/mont_d.cuh"

namespace cuzk::gpu {

using fr_d = mont_d<ff::fr_params>;
static_assert(sizeof(fr_d) == sizeof(ff::fr_t) && fr_d::n == 8);
static_assert(alignof(fr_d) % alignof(ff::fr_t) == 0);

}  // namespace cuzk::gpu
