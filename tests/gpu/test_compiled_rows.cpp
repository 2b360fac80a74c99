// a, b, c formed from the compact witness by the device's row code (issue
// 18) against porep_compiled_t::evaluate, the host's own formation: the
// emulated kernels in CI, gpu::form_rows on a GPU (2 KiB and 8 MiB always,
// 512 MiB with CUZK_GPU_TEST_LARGE=1). PoRep witnesses are random, so they
// are unsatisfied: the first failing row is checked against
// groth16::check_satisfied's.
#include <gtest/gtest.h>


#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <memory>
#include <string>

#include "circuits/porep_circuit.hpp"
#include "circuits/porep_compiled_t.hpp"
#include "circuits/porep_layout_t.hpp"
#include "circuits/porep_random_witness.hpp"
#include "circuits/porep_synthesis.hpp"
#include "gpu/compiled_rows.hpp"
#include "gpu/device.hpp"
#include "groth16/prover_checks.hpp"
#include "porep/sector_params_t.hpp"
#include "r1cs/witness_cs.hpp"
#include "rows_emulation.hpp"
#include "test_seed.hpp"

namespace {

using namespace cuzk;
using ff::fr_t;

struct porep_case_t {
  std::shared_ptr<const circuits::porep_compiled_t> compiled;
  circuits::porep_witness_t reference;  // rows formed on the host
  r1cs::witness_cs compact;             // the same assignment, deferred
};

porep_case_t make_porep_case(std::uint64_t sector_bytes, std::uint64_t seed) {
  const auto shape = circuits::porep_circuit_shape_t::for_sector(porep::sector_params_for(sector_bytes));
  const circuits::porep_circuit circuit(shape, circuits::random_porep_witness(shape, seed));
  const auto layout = circuits::porep_layout_t::measure(circuit);
  auto compiled = std::make_shared<const circuits::porep_compiled_t>(circuits::porep_compiled_t::compile(circuit, layout));
  circuits::porep_witness_t assigned = circuits::assign_porep_compiled(circuit, *compiled);
  circuits::porep_witness_t reference;
  reference.inputs = assigned.inputs;
  reference.aux = assigned.aux;
  reference.a_input_density = assigned.a_input_density;
  reference.b_input_density = assigned.b_input_density;
  reference.a_aux_density = assigned.a_aux_density;
  reference.b_aux_density = assigned.b_aux_density;
  circuits::form_rows(reference, *compiled);
  // Packed as synthesis assigns it (what the engine runs): the packing of the whole assignment.
  r1cs::witness_cs compact =
      circuits::into_deferred_witness(circuits::assign_porep_compiled(circuit, *compiled, true), compiled);
  EXPECT_TRUE(compact.compact_aux() == r1cs::compact_assignment_t::pack(reference.aux)) << "seed " << seed;
  EXPECT_TRUE(circuits::into_deferred_witness(std::move(assigned), compiled).compact_aux() == compact.compact_aux());
  return {std::move(compiled), std::move(reference), std::move(compact)};
}

std::size_t first_failing_row(const circuits::porep_witness_t& w) {
  try {
    groth16::check_satisfied(w.a, w.b, w.c);
  } catch (const groth16::unsatisfied_witness& e) {
    const std::string m = e.what(), key = "constraint ";
    return std::stoull(m.substr(m.find(key) + key.size()));
  }
  return SIZE_MAX;
}

template <class V>
std::size_t first_difference(const V& got, const r1cs::fr_vector& want) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(got[i] == want[i])) return i;
  return SIZE_MAX;
}

std::vector<std::uint64_t> words(const r1cs::density_tracker& d) { return {d.words().begin(), d.words().end()}; }

}  // namespace

TEST(CompiledRowsEmulated, PorepTwoKiBMatchesHostEvaluation) {
  const std::uint64_t seed = test::seed("CompiledRowsEmulated porep 2KiB");
  porep_case_t c = make_porep_case(2048, seed);
  const r1cs::compiled_rows_view_t* view = c.compact.row_evaluator()->view();
  ASSERT_NE(view, nullptr);
  ASSERT_EQ(view->num_constraints(), c.reference.a.size());
  ASSERT_EQ(view->blocks.size(), 2u);
  EXPECT_EQ(view->blocks[1].instances.size(), c.compiled->layout().challenges);
  EXPECT_EQ(view->bytes(), c.compiled->bytes() - 4 * 3 * (view->blocks[0].rows() + view->blocks[1].rows()) +
                               view->coeffs.size_bytes())
      << "row_end counted at 4 bytes, coefficients added";

  const test::emulated_rows_t e = test::emulate_form_rows(*view, c.compact.input_assignment(), c.compact.compact_aux());
  EXPECT_EQ(first_difference(e.a, c.reference.a), SIZE_MAX) << "seed " << seed;
  EXPECT_EQ(first_difference(e.b, c.reference.b), SIZE_MAX) << "seed " << seed;
  EXPECT_EQ(first_difference(e.c, c.reference.c), SIZE_MAX) << "seed " << seed;
  EXPECT_EQ(first_difference(e.aux, c.reference.aux), SIZE_MAX) << "seed " << seed;
  const std::size_t bad = first_failing_row(c.reference);
  ASSERT_NE(bad, SIZE_MAX) << "a random witness satisfies the circuit?";
  EXPECT_EQ(e.first_unsatisfied, bad);

  // The densities alone, the witness still deferred.
  c.compact.form_densities();
  EXPECT_TRUE(c.compact.is_deferred());
  EXPECT_EQ(words(c.compact.a_aux_density()), c.reference.a_aux_density);
  EXPECT_EQ(words(c.compact.b_aux_density()), c.reference.b_aux_density);
  EXPECT_EQ(words(c.compact.a_input_density()), c.reference.a_input_density);
  EXPECT_EQ(words(c.compact.b_input_density()), c.reference.b_input_density);
}

// A satisfied row stays satisfied and an edited one is named: row_holds's
// shortcuts (a or b zero, a or b one) against the product.
// The rows' bound on values other than 0 and 1 (porep_compiled_t::
// wide_aux_bound) holds for satisfying witnesses and, PoRep being SHA-256
// bits almost entirely, stays near their real count: what the engine can
// reserve for a partition being synthesized instead of 32 bytes per aux.
TEST(CompiledRowsEmulated, WideBoundHoldsAndIsNearTheRealCount) {
  const std::uint64_t seed = test::seed("compiled_rows.wide_bound");
  for (std::uint64_t bytes : {std::uint64_t(2048), std::uint64_t(8) << 20}) {
    const porep_case_t c = make_porep_case(bytes, seed);
    const std::size_t bound = c.compiled->wide_aux_bound(), wide = c.compact.compact_aux().wide_count(),
                      aux = c.compact.num_aux();
    std::printf("[wide bound] %llu bytes: %zu aux, %zu wide, bound %zu\n", static_cast<unsigned long long>(bytes), aux,
                wide, bound);
    EXPECT_LE(wide, bound) << bytes;
    EXPECT_LE(bound, 2 * wide + aux / 100) << bytes;
  }
}

TEST(CompiledRowsEmulated, RowHoldsAgreesWithTheProduct) {
  const std::uint64_t seed = test::seed("CompiledRowsEmulated row_holds");
  std::mt19937_64 rng(seed);
  const fr_t values[] = {fr_t::zero(), fr_t::one(), -fr_t::one(), circuits::random_fr254(rng),
                         circuits::random_fr254(rng)};
  auto d = [](const fr_t& x) { return *reinterpret_cast<const gpu::fr_d*>(&x); };
  for (const fr_t& a : values)
    for (const fr_t& b : values)
      for (const fr_t& c : values) {
        EXPECT_EQ(gpu::rows_d::row_holds(d(a), d(b), d(c)), a * b == c) << "seed " << seed;
        EXPECT_TRUE(gpu::rows_d::row_holds(d(a), d(b), d(a * b)));
      }
}

namespace {

void expect_device_matches_host(std::uint64_t sector_bytes) {
  const std::uint64_t seed = test::seed("CompiledRowsDevice " + std::to_string(sector_bytes));
  porep_case_t c = make_porep_case(sector_bytes, seed);
  const r1cs::compiled_rows_view_t* view = c.compact.row_evaluator()->view();
  const gpu::device_rows_t rows(*view);
  EXPECT_EQ(rows.num_constraints(), c.reference.a.size());
  EXPECT_GE(rows.bytes(), view->bytes());
  const std::size_t n = std::bit_ceil(c.reference.a.size());
  gpu::device_witness_t d = gpu::form_rows(rows, c.compact.input_assignment(), c.compact.compact_aux(), n);
  const auto a = d.a.to_host(), b = d.b.to_host(), cc = d.c.to_host(), aux = d.aux.to_host();
  ASSERT_EQ(a.size(), n);
  EXPECT_EQ(first_difference(a, c.reference.a), SIZE_MAX) << sector_bytes << " seed " << seed;
  EXPECT_EQ(first_difference(b, c.reference.b), SIZE_MAX) << sector_bytes << " seed " << seed;
  EXPECT_EQ(first_difference(cc, c.reference.c), SIZE_MAX) << sector_bytes << " seed " << seed;
  EXPECT_EQ(first_difference(aux, c.reference.aux), SIZE_MAX) << sector_bytes << " seed " << seed;
  EXPECT_TRUE(std::all_of(a.begin() + std::ptrdiff_t(c.reference.a.size()), a.end(), [](const fr_t& x) { return x.is_zero(); }))
      << "padding";
  EXPECT_EQ(d.first_unsatisfied, first_failing_row(c.reference));
  std::cout << "[compiled rows] " << sector_bytes << " B sector: " << rows.num_constraints() << " rows, matrices "
            << rows.bytes() / (1 << 20) << " MiB, upload " << d.upload_ms << " ms, rows " << d.rows_ms << " ms, check "
            << d.check_ms << " ms\n";
  EXPECT_THROW(gpu::form_rows(rows, c.compact.input_assignment(), c.compact.compact_aux(), n / 2),
               std::invalid_argument);
}

#define SKIP_WITHOUT_GPU()                                                                          \
  if (gpu::device_count() == 0) GTEST_SKIP() << "no CUDA device of compute capability >= 9.0 " \
                                                "(or built without CUDA): GPU test skipped"

}  // namespace

TEST(CompiledRowsDevice, PorepTwoKiBAndEightMiBMatchHost) {
  SKIP_WITHOUT_GPU();
  expect_device_matches_host(2048);
  expect_device_matches_host(8u << 20);
}

TEST(CompiledRowsDevice, PorepFiveHundredTwelveMiBMatchesHost) {
  SKIP_WITHOUT_GPU();
  if (!std::getenv("CUZK_GPU_TEST_LARGE")) GTEST_SKIP() << "set CUZK_GPU_TEST_LARGE=1 for the 512 MiB partition";
  expect_device_matches_host(512u << 20);
}
