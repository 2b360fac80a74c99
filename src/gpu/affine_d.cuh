#pragma once
// Affine point on the device, bytes identical to ec::affine_t (x, y; infinity
// is (0, 0)), so base tables cross PCIe unconverted.
#include "gpu/carry_chain.cuh"

namespace cuzk::gpu {

template <class F>
struct affine_d {
  F x, y;
  CUZK_HD bool is_inf() const { return x.is_zero() && y.is_zero(); }
};

}  // namespace cuzk::gpu
