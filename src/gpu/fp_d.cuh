#pragma once
// BLS12-381 base field on the device: 12 x 32-bit limbs, bytes identical to ff::fp_t.
#include "ff/fp.hpp"
#include "gpu/mont_d.cuh"

namespace cuzk::gpu {

using fp_d = mont_d<ff::fp_params>;
static_assert(sizeof(fp_d) == sizeof(ff::fp_t) && fp_d::n == 12);
static_assert(alignof(fp_d) % alignof(ff::fp_t) == 0);

}  // namespace cuzk::gpu
