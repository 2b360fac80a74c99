// Definitions of the plain-C++ GPU interface for builds without CUDA, so that
// callers link everywhere: device_count() is 0 and everything else throws.
#ifndef CUZK_HAVE_CUDA

#include <stdexcept>
#include <string>

#include "gpu/compiled_rows.hpp"
#include "gpu/device.hpp"
#include "gpu/field_check.hpp"
#include "gpu/fixed_base.hpp"
#include "gpu/msm_bases.hpp"
#include "gpu/msm_timer.hpp"
#include "gpu/ntt.hpp"
#include "gpu/ntt_timer.hpp"
#include "gpu/probes.hpp"

namespace cuzk::gpu {

namespace {
[[noreturn]] void no_cuda(const char* what) {
  throw std::runtime_error(std::string("cuzk built without CUDA: ") + what + " unavailable");
}
}  // namespace

int device_count() { return 0; }
void set_device(int) { no_cuda("gpu::set_device"); }
int current_device() { no_cuda("gpu::current_device"); }
device_info_t device_info(int) { no_cuda("gpu::device_info"); }
void pin_until_freed(const void*, std::size_t) { no_cuda("gpu::pin_until_freed"); }
std::size_t pinned_bytes() { return 0; }

template <class C>
void fixed_base_mul(std::span<const ec::affine_t<C>>, std::span<const ff::limbs_t<4>>, std::span<ec::affine_t<C>>) {
  no_cuda("gpu::fixed_base_mul");
}
template void fixed_base_mul<ec::g1_curve>(std::span<const ec::affine_t<ec::g1_curve>>, std::span<const ff::limbs_t<4>>,
                                           std::span<ec::affine_t<ec::g1_curve>>);
template void fixed_base_mul<ec::g2_curve>(std::span<const ec::affine_t<ec::g2_curve>>, std::span<const ff::limbs_t<4>>,
                                           std::span<ec::affine_t<ec::g2_curve>>);

void ntt(std::span<ff::fr_t>, uint32_t, ntt_dir, bool, ntt_config) { no_cuda("gpu::ntt"); }
void prepare_ntt(uint32_t) { no_cuda("gpu::prepare_ntt"); }
device_scalars compute_h_resident(std::span<const ff::fr_t>, std::span<const ff::fr_t>, std::span<const ff::fr_t>,
                                  ntt_config, compute_h_times*) {
  no_cuda("gpu::compute_h_resident");
}

device_scalars compute_h_resident(device_scalars&&, device_scalars&&, device_scalars&&, ntt_config, compute_h_times*) {
  no_cuda("gpu::compute_h_resident");
}

struct device_rows_t::impl {};
device_rows_t::device_rows_t(const r1cs::compiled_rows_view_t&) { no_cuda("gpu::device_rows_t"); }
device_rows_t::~device_rows_t() = default;
device_rows_t::device_rows_t(device_rows_t&&) noexcept = default;
device_rows_t& device_rows_t::operator=(device_rows_t&&) noexcept = default;
std::size_t device_rows_t::bytes() const { return 0; }
std::size_t device_rows_t::num_constraints() const { return 0; }
std::size_t device_rows_t::num_inputs() const { return 0; }
std::size_t device_rows_t::num_aux() const { return 0; }
device_witness_t form_rows(const device_rows_t&, std::span<const ff::fr_t>, const r1cs::compact_assignment_t&,
                           std::size_t) {
  no_cuda("gpu::form_rows");
}

struct device_scalars::impl {};
device_scalars::device_scalars() = default;
device_scalars::device_scalars(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
device_scalars::~device_scalars() = default;
device_scalars::device_scalars(device_scalars&&) noexcept = default;
device_scalars& device_scalars::operator=(device_scalars&&) noexcept = default;
device_scalars device_scalars::upload(std::span<const ff::fr_t>) { no_cuda("gpu::device_scalars"); }
size_t device_scalars::size() const { return 0; }
device_scalars compact_by_bits(const device_scalars&, std::span<const uint64_t>, size_t) {
  no_cuda("gpu::compact_by_bits");
}
std::vector<ff::fr_t> device_scalars::to_host() const { return {}; }
void compute_h(std::span<ff::fr_t>, std::span<const ff::fr_t>, std::span<const ff::fr_t>, ntt_config) {
  no_cuda("gpu::compute_h");
}

void field_ops_on_device(std::span<const ff::fr_t>, std::span<const ff::fr_t>, std::span<ff::fr_t>,
                         std::span<ff::fr_t>, std::span<ff::fr_t>) {
  no_cuda("gpu::field_ops_on_device");
}
void field_ops_on_device(std::span<const ff::fp_t>, std::span<const ff::fp_t>, std::span<ff::fp_t>,
                         std::span<ff::fp_t>, std::span<ff::fp_t>) {
  no_cuda("gpu::field_ops_on_device");
}
void copy_through_device(std::span<const ff::fr_t>, std::span<ff::fr_t>) { no_cuda("gpu::copy_through_device"); }

double fr_mul_ms(uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fr_mul_ms"); }
double fr_mul_karatsuba_ms(uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fr_mul_karatsuba_ms"); }
double fr52_mul_ms(uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fr52_mul_ms"); }
double fr_mul_mixed_ms(uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fr_mul_mixed_ms"); }
void fr52_mul_check(std::span<const ff::fr_t>, std::span<const ff::fr_t>, std::span<ff::fr_t>, std::span<ff::fr_t>) {
  no_cuda("gpu::fr52_mul_check");
}
double d2d_copy_ms(size_t) { no_cuda("gpu::d2d_copy_ms"); }
double fp_mul_ms(uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fp_mul_ms"); }
double fp_mul_karatsuba_ms(uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fp_mul_karatsuba_ms"); }
double fp_mul_lazy_ms(uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fp_mul_lazy_ms"); }
double fp52_mul_ms(uint32_t, bool, bool, uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fp52_mul_ms"); }
double fp_mul_mixed52_ms(uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fp_mul_mixed52_ms"); }
void fp52_mul_check(std::span<const ff::fp_t>, std::span<const ff::fp_t>, std::span<ff::fp_t>, std::span<ff::fp_t>) {
  no_cuda("gpu::fp52_mul_check");
}
double fp_sqr_ms(uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fp_sqr_ms"); }
double fp_sqr_by_mul_ms(uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fp_sqr_by_mul_ms"); }
double g1_add_mixed_ms(fp_form, uint32_t, uint32_t, uint32_t) { no_cuda("gpu::g1_add_mixed_ms"); }
double fp2_mul_ms(bool, bool, uint32_t, uint32_t, uint32_t) { no_cuda("gpu::fp2_mul_ms"); }
double g2_add_mixed_ms(fp2_product, bool, uint32_t, uint32_t, uint32_t) { no_cuda("gpu::g2_add_mixed_ms"); }

struct ntt_timer::impl {};
ntt_timer::ntt_timer(uint32_t, int) { no_cuda("gpu::ntt_timer"); }
ntt_timer::~ntt_timer() = default;
double ntt_timer::ntt_ms(ntt_dir, bool, ntt_config) { no_cuda("gpu::ntt_timer"); }
double ntt_timer::nr_passes_ms(ntt_dir, ntt_config) { no_cuda("gpu::ntt_timer"); }
double ntt_timer::bit_reverse_ms() { no_cuda("gpu::ntt_timer"); }
double ntt_timer::compute_h_ms(ntt_config) { no_cuda("gpu::ntt_timer"); }

template <class C>
struct msm_bases<C>::impl {};
template <class C>
msm_bases<C>::msm_bases(std::span<const ec::affine_t<C>>, residency_t, size_t) {
  no_cuda("gpu::msm_bases");
}
template <class C>
msm_bases<C>::msm_bases(size_t, const fill_t&, size_t) {
  no_cuda("gpu::msm_bases");
}
template <class C>
msm_bases<C>::msm_bases(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
template <class C>
msm_bases<C>::~msm_bases() = default;
template <class C>
msm_bases<C>::msm_bases(msm_bases&&) noexcept = default;
template <class C>
msm_bases<C>& msm_bases<C>::operator=(msm_bases&&) noexcept = default;
template <class C>
size_t msm_bases<C>::size() const {
  return 0;
}

template <class C>
ec::jacobian_t<C> msm_bases<C>::msm(std::span<const ff::fr_t>, size_t, const msm_config&) const {
  no_cuda("gpu::msm_bases::msm");
}
template <class C>
ec::jacobian_t<C> msm_bases<C>::msm(const device_scalars&, size_t, size_t, const msm_config&) const {
  no_cuda("gpu::msm_bases::msm");
}
template <class C>
struct msm_timer<C>::impl {};
template <class C>
msm_timer<C>::msm_timer(std::span<const ec::affine_t<C>>, uint32_t, uint64_t, uint32_t, uint32_t) {
  no_cuda("gpu::msm_timer");
}
template <class C>
msm_timer<C>::~msm_timer() = default;
template <class C>
double msm_timer<C>::msm_ms(const msm_config&) {
  no_cuda("gpu::msm_timer");
}
template <class C>
double msm_timer<C>::msm_ms_fp2(fp2_product, bool, const msm_config&) {
  no_cuda("gpu::msm_timer");
}
template <class C>
double msm_timer<C>::msm_ms_fp(fp_form, const msm_config&) {
  no_cuda("gpu::msm_timer");
}
template <class C>
ec::jacobian_t<C> msm_timer<C>::last_result() const {
  no_cuda("gpu::msm_timer");
}
template class msm_bases<ec::g1_curve>;
template class msm_bases<ec::g2_curve>;
template class msm_timer<ec::g1_curve>;
template class msm_timer<ec::g2_curve>;

}  // namespace cuzk::gpu

#endif  // CUZK_HAVE_CUDA
