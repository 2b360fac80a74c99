#pragma once
// gpu::form_rows on the host: the kernels' per-row and per-variable code
// (gpu/compiled_rows_d.cuh) run over host memory, thread by thread in
// order, so CI checks the index logic (instances, variable classes, the
// packed aux's ranks) without a GPU.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "gpu/compiled_rows_d.cuh"
#include "r1cs/compact_assignment_t.hpp"
#include "r1cs/compiled_rows_view_t.hpp"

namespace cuzk::test {

struct emulated_rows_t {
  std::vector<ff::fr_t> a, b, c, aux;  // a, b, c: num_constraints() rows (no padding)
  std::size_t first_unsatisfied = SIZE_MAX;
};

inline emulated_rows_t emulate_form_rows(const r1cs::compiled_rows_view_t& v, std::span<const ff::fr_t> inputs,
                                         const r1cs::compact_assignment_t& aux) {
  using gpu::fr_d;
  namespace rd = gpu::rows_d;
  auto dev = [](const ff::fr_t* p) { return reinterpret_cast<const fr_d*>(p); };
  const rd::witness_d w{dev(inputs.data()),
                        {aux.wide_bits().data(), aux.value_bits().data(), aux.rank().data(), dev(aux.wide_values().data())}};
  const fr_d* coeffs = dev(v.coeffs.data());
  emulated_rows_t out;
  const std::size_t n = v.num_constraints();
  out.a.resize(n);
  out.b.resize(n);
  out.c.resize(n);
  auto host = [](const fr_d& x) {
    ff::fr_t r;
    static_assert(sizeof r == sizeof x);
    std::memcpy(&r, &x, sizeof r);
    return r;
  };
  for (const auto& blk : v.blocks) {
    const rd::matrix_d ma{blk.a.row_end.data(), blk.a.terms.data()}, mb{blk.b.row_end.data(), blk.b.terms.data()},
        mc{blk.c.row_end.data(), blk.c.terms.data()};
    for (const auto& in : blk.instances) {
      for (std::size_t r = 0; r < blk.rows(); ++r) {
        out.a[in.row + r] = host(rd::eval_row(ma, r, coeffs, w, in.aux, in.input, in.window));
        out.b[in.row + r] = host(rd::eval_row(mb, r, coeffs, w, in.aux, in.input, in.window));
        out.c[in.row + r] = host(rd::eval_row(mc, r, coeffs, w, in.aux, in.input, in.window));
      }
    }
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    out.a[v.circuit_rows + i] = inputs[i];
    out.b[v.circuit_rows + i] = out.c[v.circuit_rows + i] = ff::fr_t::zero();
  }
  out.aux.resize(aux.size());
  for (std::size_t i = 0; i < aux.size(); ++i) out.aux[i] = host(w.aux[i]);
  for (std::size_t i = 0; i < n && out.first_unsatisfied == SIZE_MAX; ++i) {
    if (!rd::row_holds(*dev(&out.a[i]), *dev(&out.b[i]), *dev(&out.c[i]))) out.first_unsatisfied = i;
  }
  return out;
}

}  // namespace cuzk::test
