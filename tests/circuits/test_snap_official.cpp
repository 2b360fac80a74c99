// SnapDeals under Filecoin's official 2 KiB EmptySectorUpdate parameters,
// where the parameter cache holds them ($FIL_PROOFS_PARAMETER_CACHE, else
// /var/tmp/filecoin-proof-parameters; paramfetch / `lotus fetch-params 2KiB`):
// the official verifying key has the circuit's 5 inputs, and a generated
// update proven with the official .params verifies under the official .vk
// with upstream's public inputs. This is the bit-exactness check of the
// circuit's matrices (allocation order, coefficients, input order) against
// the ceremony's; without the files it skips naming them. The checks that
// run everywhere are test_snap_circuit.cpp's (upstream's counts) and
// test_snap_vanilla.cpp's (upstream's challenge vectors).
#include <gtest/gtest.h>

#include <filesystem>

#include "circuits/circuit_model.hpp"
#include "circuits/snap_circuit.hpp"
#include "engine/param_store_t.hpp"
#include "filecoin/parameter_manifest_t.hpp"
#include "groth16/groth16.hpp"
#include "groth16/param_io.hpp"
#include "porep/snap_vanilla.hpp"
#include "test_seed.hpp"

using namespace cuzk;

TEST(SnapOfficial, TwoKiBUpdateVerifiesUnderTheOfficialParameters) {
  namespace fs = std::filesystem;
  const fs::path dir = filecoin::default_parameter_cache();
  const auto files = filecoin::parameter_files(filecoin::parameter_kind_t::snap_deals, 2048);
  std::error_code ec;
  if (!fs::is_regular_file(dir / files.params, ec) || !fs::is_regular_file(dir / files.vk, ec))
    GTEST_SKIP() << "official 2 KiB SnapDeals parameters not in " << dir << ": " << files.params << ", " << files.vk;
  const auto vk = groth16::read_verifying_key((dir / files.vk).string());
  ASSERT_EQ(vk.ic.size(), 5u) << "ONE, k_and_h_select, comm_r_old, comm_d_new, comm_r_new";
  const auto params = engine::read_parameter_file((dir / files.params).string());

  const std::uint64_t seed = test::seed("SnapOfficial");
  const auto shape = porep::snap_shape_for(2048);
  const porep::snap_sector_t sector(shape, seed);
  const circuits::circuit_model<circuits::snap_circuit> circuit(
      "snap", circuits::snap_circuit(shape, std::make_shared<const circuits::snap_witness_t>(
                                                circuits::snap_witness_t{sector.public_inputs(0),
                                                                         sector.partition_proof(0)})));
  groth16::seeded_rng rng(seed);
  const auto proof = groth16::prove(params, circuit, rng);
  EXPECT_TRUE(groth16::verify(vk, proof, circuit.public_inputs()));
  auto other = sector.public_inputs(0);
  other.comm_r_new += ff::fr_t::one();
  EXPECT_FALSE(groth16::verify(vk, proof, circuits::snap_circuit::public_inputs(shape, other)));
}
