// End to end on the CPU for a 2 KiB sector: porep-native replicates a sector
// and writes its vanilla proof, Groth16 setup runs on the porep circuit
// (shape only), the partition is proven from the vanilla proof and the proof
// verifies with the public inputs computed from the challenges; the same
// proof fails against another sector's inputs.
#include <gtest/gtest.h>

#include "circuits/compiled_for.hpp"

#include "circuits/circuit_model.hpp"
#include "circuits/circuit_registry.hpp"
#include "circuits/porep_circuit.hpp"
#include "circuits/porep_vanilla_witness.hpp"
#include "groth16/groth16.hpp"
#include "porep/vanilla_generator.hpp"
#include "test_seed.hpp"

using namespace cuzk;

TEST(PorepProve, TwoKiBSectorProvesAndVerifies) {
  const auto p = porep::sector_params_for(2048);
  const uint64_t seed = test::seed("PorepProve");
  const auto vanilla = porep::generate_vanilla(p, seed);
  const auto shape = circuits::porep_circuit_shape_t::for_sector(p);

  groth16::seeded_rng rng(seed);
  const auto params = groth16::generate_parameters(*circuits::make_circuit("porep", 2048),
                                                   groth16::toxic_waste_t::random(rng));
  ASSERT_EQ(params.vk.ic.size(), shape.num_inputs());
  // The counts `cuzk circuit-info` derives from the compiled rows' densities
  // are the setup's (which tracks them through a synthesis of its own).
  EXPECT_EQ(circuits::parameter_query_sizes(*circuits::compiled_for(filecoin::parameter_kind_t::porep, 2048)),
            groth16::query_sizes_t::of(params));

  const circuits::circuit_model<circuits::porep_circuit> circuit(
      "porep", circuits::porep_circuit(shape, circuits::porep_witness_from_vanilla(vanilla, 0)));
  const auto proof = groth16::prove(params, circuit, rng);
  const auto inputs = circuit.public_inputs();
  EXPECT_TRUE(groth16::verify(params.vk, proof, inputs));

  const auto other = porep::generate_vanilla(p, seed + 1);
  const circuits::porep_circuit other_circuit(shape, circuits::porep_witness_from_vanilla(other, 0));
  EXPECT_FALSE(groth16::verify(params.vk, proof, other_circuit.public_inputs()));
}
