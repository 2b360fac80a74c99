#pragma once
// a, b, c formed on the GPU from a compact witness (issue 18): the compiled
// matrices of a circuit uploaded once (device_rows_t), then per proof the
// inputs and the packed aux go up (3 bits per variable + 32 bytes per value
// other than 0 and 1, instead of 32 bytes per variable and per row), and
// kernels form a = A·w, b = B·w, c = C·w straight into the NTT's vectors,
// check a·b = c on every row, and expand the aux into the scalars the L, A
// and B MSMs read. The per-row and per-variable logic is
// gpu/compiled_rows_d.cuh, which CI runs on the host.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "ff/fr.hpp"
#include "gpu/device_scalars.hpp"
#include "r1cs/compact_assignment_t.hpp"
#include "r1cs/compiled_rows_view_t.hpp"

namespace cuzk::gpu {

class device_rows_t {
 public:
  // Copies the view's matrices and coefficients to the current device
  // (synchronous); the view need not outlive it. Throws std::runtime_error
  // where there is no GPU.
  explicit device_rows_t(const r1cs::compiled_rows_view_t& view);
  ~device_rows_t();
  device_rows_t(device_rows_t&&) noexcept;
  device_rows_t& operator=(device_rows_t&&) noexcept;

  std::size_t bytes() const;  // device memory held
  std::size_t num_constraints() const;
  std::size_t num_inputs() const;
  std::size_t num_aux() const;

  struct impl;
  const impl& get() const { return *impl_; }

 private:
  std::unique_ptr<impl> impl_;
};

struct device_witness_t {
  device_scalars aux;      // every aux value, expanded
  device_scalars a, b, c;  // domain_n values each, zero past the rows
  // The first row (input rows included) where a·b != c; SIZE_MAX when
  // every row holds.
  std::size_t first_unsatisfied = SIZE_MAX;
  double upload_ms = 0, rows_ms = 0, check_ms = 0;  // CUDA events
};

// Uploads inputs and aux, forms the rows and checks them (the result is in
// when this returns). Throws std::invalid_argument when the sizes are not
// the rows' or domain_n is not a power of two of at least num_constraints().
device_witness_t form_rows(const device_rows_t& rows, std::span<const ff::fr_t> inputs,
                           const r1cs::compact_assignment_t& aux, std::size_t domain_n);

}  // namespace cuzk::gpu
