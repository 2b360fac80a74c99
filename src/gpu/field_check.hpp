#pragma once
// Test entry points for the device fields: the same operations as the host
// fields, run by a kernel on host-supplied values. Plain C++ interface.
#include <span>

#include "ff/fp.hpp"
#include "ff/fr.hpp"

namespace cuzk::gpu {

// sum[i] = a[i] + b[i], diff[i] = a[i] - b[i], prod[i] = a[i] * b[i], on the device.
// All spans have the size of a.
void field_ops_on_device(std::span<const ff::fr_t> a, std::span<const ff::fr_t> b, std::span<ff::fr_t> sum,
                         std::span<ff::fr_t> diff, std::span<ff::fr_t> prod);
void field_ops_on_device(std::span<const ff::fp_t> a, std::span<const ff::fp_t> b, std::span<ff::fp_t> sum,
                         std::span<ff::fp_t> diff, std::span<ff::fp_t> prod);

// Uploads in, has a kernel read each value as a device element and write it
// to a second buffer, downloads into out: the byte-layout round trip.
void copy_through_device(std::span<const ff::fr_t> in, std::span<ff::fr_t> out);

}  // namespace cuzk::gpu
