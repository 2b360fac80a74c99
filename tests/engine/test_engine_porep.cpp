// PoRep C2 through engine_t on the CPU backend, for a 2 KiB sector: the
// vanilla-proof JSON in, one proof per partition out, each verified with
// groth16::verify against public inputs built independently from the vanilla
// proof (porep_witness_from_vanilla + porep_circuit, not the engine's
// circuits). Refusals at submit: a wrong sector_size, a changed label, a
// changed Tree D sibling, unparsable JSON. The layout-based shape is checked
// against a full shape-mode synthesis. One TEST: parameter generation takes
// about two minutes on two cores and ctest runs each TEST in its own process.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "circuits/circuit_model.hpp"
#include "circuits/circuit_registry.hpp"
#include "circuits/porep_circuit.hpp"
#include "circuits/porep_partition_circuit_t.hpp"
#include "circuits/porep_vanilla_witness.hpp"
#include "engine/engine.hpp"
#include "engine/invalid_request.hpp"
#include "engine_test_support.hpp"
#include "groth16/groth16.hpp"
#include "porep/vanilla_generator.hpp"
#include "porep/vanilla_json.hpp"
#include "test_seed.hpp"

namespace cuzk::engine {
namespace {

using test_support::small_config;

std::vector<uint8_t> to_bytes(const porep::vanilla_proof_t& v) {
  const std::string s = porep::vanilla_to_json(v).dump();
  return {s.begin(), s.end()};
}

job_request_t porep_job(const porep::vanilla_proof_t& v, uint64_t sector_size) {
  job_request_t r;
  r.proof_kind = proof_kind_t::porep_seal_commit;
  r.sector_size = sector_size;
  r.vanilla_proof = to_bytes(v);
  return r;
}

// The message of the invalid_request that submit throws, or "" when accepted.
std::string refusal(engine_t& e, const job_request_t& r) {
  try {
    e.submit(r);
  } catch (const invalid_request& err) {
    return err.what();
  }
  return "";
}

void expect_refused(engine_t& e, const job_request_t& r, const std::string& fragment) {
  const std::string msg = refusal(e, r);
  EXPECT_NE(msg.find(fragment), std::string::npos) << "want '" << fragment << "' in: " << msg;
}

TEST(EnginePorep, TwoKiBSectorProvesEndToEndAndBadVanillaIsRefused) {
  const uint64_t seed = test::seed("EnginePorep");
  const auto sector = porep::sector_params_for(2048);
  const auto vanilla = porep::generate_vanilla(sector, seed);
  ASSERT_EQ(vanilla.partitions.size(), 1u);
  engine_t e(small_config(uint64_t(8) << 30));  // the 2 KiB parameters alone are 1.1 GB

  // Refusals come before parameters are looked up.
  expect_refused(e, porep_job(vanilla, 8 << 20), "sector_size");
  auto bad_label = vanilla;
  bad_label.partitions[0].challenges[1].column.rows[0] += ff::fr_t::one();
  expect_refused(e, porep_job(bad_label, 2048), "partitions[0].challenges[1].column.column[0]");
  auto bad_path = vanilla;
  bad_path.partitions[0].challenges[0].tree_d.siblings[2][0] += ff::fr_t::one();
  expect_refused(e, porep_job(bad_path, 2048), "partitions[0].challenges[0].comm_d_proof");
  auto not_json = porep_job(vanilla, 0);
  not_json.vanilla_proof.resize(not_json.vanilla_proof.size() / 2);
  expect_refused(e, not_json, "vanilla_proof");
  // A good proof without parameters names the circuit id it wants.
  expect_refused(e, porep_job(vanilla, 0), "'porep-2k'");

  // The footprint's shape comes from the layout; it must equal a full shape pass.
  const auto generic = circuits::make_circuit("porep", 2048);
  const circuits::porep_partition_circuit_t partition(circuits::porep_synthesizer_t::for_sector(sector), vanilla, 0);
  const circuits::circuit_model<circuits::porep_circuit> full_pass(
      "porep", circuits::porep_circuit(circuits::porep_circuit_shape_t::for_sector(sector)));
  EXPECT_EQ(partition.prove_shape(), full_pass.prove_shape());

  groth16::seeded_rng rng(seed);
  const auto params = std::make_shared<const groth16::parameters_t>(
      groth16::generate_parameters(*generic, groth16::toxic_waste_t::random(rng)));
  e.register_parameters(engine_t::porep_circuit_id(2048), params);
  const auto request = porep_job(vanilla, 2048);
  const auto result = e.prove(request);
  ASSERT_EQ(result.status, job_status_t::completed) << result.error_message;
  ASSERT_EQ(result.partitions, 1u);
  ASSERT_EQ(result.proof.size(), groth16::proof_size);

  const auto shape = circuits::porep_circuit_shape_t::for_sector(sector);
  const circuits::porep_circuit truth(shape, circuits::porep_witness_from_vanilla(vanilla, 0));
  groth16::proof_t proof;
  ASSERT_TRUE(groth16::decode_proof(std::span(result.proof).first(groth16::proof_size), proof).ok());
  EXPECT_TRUE(groth16::verify(params->vk, proof, truth.public_inputs()));
  const auto other = porep::generate_vanilla(sector, seed + 1);
  const circuits::porep_circuit other_truth(shape, circuits::porep_witness_from_vanilla(other, 0));
  EXPECT_FALSE(groth16::verify(params->vk, proof, other_truth.public_inputs()));
}

TEST(EnginePorep, CircuitIdsPerSectorSize) {
  EXPECT_EQ(engine_t::porep_circuit_id(2048), "porep-2k");
  EXPECT_EQ(engine_t::porep_circuit_id(8 << 20), "porep-8m");
  EXPECT_EQ(engine_t::porep_circuit_id(512 << 20), "porep-512m");
  EXPECT_EQ(engine_t::porep_circuit_id(uint64_t(32) << 30), "porep-32g");
  EXPECT_EQ(engine_t::porep_circuit_id(uint64_t(64) << 30), "porep-64g");
  job_request_t r;
  r.proof_kind = proof_kind_t::porep_seal_commit;
  EXPECT_EQ(engine_t::circuit_id_for(r), "porep-32g");
  r.sector_size = uint64_t(64) << 30;
  EXPECT_EQ(engine_t::circuit_id_for(r), "porep-64g");
}

}  // namespace
}  // namespace cuzk::engine
