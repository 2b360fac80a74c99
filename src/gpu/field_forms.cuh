#pragma once
// The field type of each form named in msm_config.hpp (fp_form for G1,
// fp2_product and below-2p for G2), for code that picks one at run time and
// compares them on one GPU: msm_timer's msm_ms_fp / msm_ms_fp2 and the
// mixed-addition probes. with_fp_form(form, f) and
// with_fp2_form(product, below_2p, f) call f(form_tag<T>{}) with the form's
// type T and return what f returns; a form that does not exist throws
// std::invalid_argument naming it.
#include <stdexcept>
#include <string>

#include "gpu/fp2_d.cuh"
#include "gpu/fp_d.cuh"
#include "gpu/fp_lazy_d.cuh"
#include "gpu/msm_config.hpp"

namespace cuzk::gpu {

template <class T>
struct form_tag {
  using type = T;
};

template <class Fn>
decltype(auto) with_fp_form(fp_form form, Fn&& f) {
  switch (form) {
    case fp_form::below_p: return f(form_tag<fp_d>{});
    case fp_form::below_2p: return f(form_tag<fp_lazy_unfused_d>{});
    case fp_form::below_2p_fused: return f(form_tag<fp_lazy_d>{});
  }
  throw std::invalid_argument("no Fp form " + std::to_string(int(form)));
}

// The fused product exists for values below p only (fp2_lazy_fused_d).
template <class Fn>
decltype(auto) with_fp2_form(fp2_product product, bool below_2p, Fn&& f) {
  switch (product) {
    case fp2_product::three_reductions:
      return below_2p ? f(form_tag<fp2_below_2p_d>{}) : f(form_tag<fp2_d>{});
    case fp2_product::two_reductions:
      return below_2p ? f(form_tag<fp2_lazy_below_2p_d>{}) : f(form_tag<fp2_lazy_d>{});
    case fp2_product::two_reductions_fused:
      if (!below_2p) return f(form_tag<fp2_lazy_fused_d>{});
      break;
  }
  throw std::invalid_argument("no Fp2 form with product " + std::to_string(int(product)) +
                              (below_2p ? " below 2p" : " below p"));
}

}  // namespace cuzk::gpu
