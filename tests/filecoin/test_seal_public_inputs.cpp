// Two derivations of a partition's public inputs must agree: the record-only
// one (filecoin::seal_public_inputs, as verify_seal derives them) and the
// partition circuit's own (porep_circuit::public_inputs, read off a vanilla
// proof's challenge and parent nodes). The vanilla proofs are real seals of
// seeded random data (generate_replicated), checked first.
#include <gtest/gtest.h>

#include "circuits/porep_circuit.hpp"
#include "circuits/porep_vanilla_witness.hpp"
#include "filecoin/seal_public_inputs.hpp"
#include "porep/vanilla_checker.hpp"
#include "porep/vanilla_generator.hpp"
#include "test_seed.hpp"

namespace cuzk::filecoin {
namespace {

using ff::fr_t;
using porep::api_version_t;
using porep::porep_feature_t;

porep_config_t config_of(const porep::sector_params_t& p) {
  porep_config_t c;
  c.sector_bytes = p.sector_bytes;
  c.partitions = p.partitions;
  c.porep_id = p.porep_id();
  c.api_version = p.api_version;
  c.feature = p.feature;
  return c;
}

void expect_derivations_agree(const porep::sector_params_t& p, std::uint64_t seed) {
  const auto v = porep::generate_replicated(p, seed);
  ASSERT_FALSE(porep::check_vanilla(v).has_value());
  const auto c = config_of(p);
  ASSERT_TRUE(v.replica_id_inputs);
  const auto& ri = *v.replica_id_inputs;
  EXPECT_EQ(seal_replica_id(c, ri.prover_id, ri.sector_id, ri.ticket, v.comm_d), v.replica_id);
  const auto shape = circuits::porep_circuit_shape_t::for_sector(p);
  const auto all = seal_public_inputs_all(c, v.comm_r, v.comm_d, v.replica_id, v.seed);
  ASSERT_EQ(all.size(), p.partitions);
  for (unsigned k = 0; k < p.partitions; ++k) {
    const circuits::porep_circuit circuit(shape, circuits::porep_witness_from_vanilla(v, k));
    const auto want = circuit.public_inputs();
    const auto got = seal_public_inputs(c, v.comm_r, v.comm_d, v.replica_id, v.seed, k);
    ASSERT_EQ(got.size(), seal_public_input_count(c));
    ASSERT_EQ(got.size() + 1, shape.num_inputs());  // the key's IC also holds ONE
    EXPECT_EQ(got, want) << "partition " << k;
    EXPECT_EQ(all[k], got);
  }
}

TEST(SealPublicInputs, AgreeWithCircuitOnReplicated2KiBEveryVersion) {
  const auto seed = test::seed("SealPublicInputs.AgreeWithCircuitOnReplicated2KiBEveryVersion");
  for (auto v : {api_version_t::v1_0, api_version_t::v1_1, api_version_t::v1_2}) {
    SCOPED_TRACE(std::string(porep::to_string(v)));
    expect_derivations_agree(porep::sector_params_for(2048, v), seed);
  }
}

TEST(SealPublicInputs, AgreeWithCircuitOnReplicated2KiBSynthetic) {
  // The replicated model knows comm_r before it opens challenges, so it can
  // draw synthetic ones (selected by the seed from the comm_r-keyed set).
  const auto seed = test::seed("SealPublicInputs.AgreeWithCircuitOnReplicated2KiBSynthetic");
  expect_derivations_agree(porep::sector_params_for(2048, api_version_t::v1_2, porep_feature_t::synthetic), seed);
}

TEST(SealPublicInputs, AgreeWithCircuitOnReplicated8MiB) {
  const auto seed = test::seed("SealPublicInputs.AgreeWithCircuitOnReplicated8MiB");
  expect_derivations_agree(porep::sector_params_for(8 << 20, api_version_t::v1_1), seed);
}

TEST(SealPublicInputs, ConfigCountsPerVersion) {
  const porep::bytes32_t id{};
  struct want_t {
    std::uint64_t bytes;
    porep_feature_t f;
    unsigned partitions, per_partition;
  };
  constexpr std::uint64_t gib = std::uint64_t(1) << 30;
  for (const auto& w : {want_t{2048, porep_feature_t::none, 1, 2}, want_t{2048, porep_feature_t::synthetic, 1, 2},
                        want_t{2048, porep_feature_t::non_interactive, 13, 2},
                        want_t{512 << 20, porep_feature_t::non_interactive, 13, 2},
                        want_t{32 * gib, porep_feature_t::none, 10, 18},
                        want_t{32 * gib, porep_feature_t::synthetic, 10, 18},
                        want_t{32 * gib, porep_feature_t::non_interactive, 126, 18},
                        want_t{64 * gib, porep_feature_t::non_interactive, 126, 18}}) {
    const auto c = porep_config_t::standard(w.bytes, api_version_t::v1_2, w.f, id);
    EXPECT_EQ(c.partitions, w.partitions) << w.bytes;
    EXPECT_EQ(c.challenges_per_partition(), w.per_partition) << w.bytes;
    EXPECT_EQ(seal_public_input_count(c), 3 + 18 * w.per_partition);
  }
  // Registered proofs: porep_id = id LE, and the version's feature.
  const auto ni32 = porep_config_t::of(seal_proof_by_id(18));
  EXPECT_EQ(ni32.porep_id[0], 18);
  EXPECT_EQ(ni32.feature, porep_feature_t::non_interactive);
  EXPECT_EQ(ni32.partitions, 126u);
  EXPECT_THROW(porep_config_t::standard(3 << 20, api_version_t::v1_1, porep_feature_t::none, id),
               std::invalid_argument);
  auto bad = porep_config_t::standard(32 * gib, api_version_t::v1_1, porep_feature_t::none, id);
  bad.partitions = 9;  // ceil(176 / 9) = 20 > 18
  EXPECT_THROW(bad.challenges_per_partition(), std::invalid_argument);
}

TEST(SealPublicInputs, RefusesZeroCommitmentsAndBadPartitions) {
  const auto c = porep_config_t::standard(2048, api_version_t::v1_1, porep_feature_t::none, {});
  const porep::bytes32_t seed{};
  EXPECT_THROW(seal_public_inputs(c, fr_t::zero(), fr_t::one(), fr_t::one(), seed, 0), std::invalid_argument);
  EXPECT_THROW(seal_public_inputs(c, fr_t::one(), fr_t::zero(), fr_t::one(), seed, 0), std::invalid_argument);
  EXPECT_THROW(seal_public_inputs(c, fr_t::one(), fr_t::one(), fr_t::one(), seed, 1), std::invalid_argument);
  porep::bytes32_t r_bytes;
  r_bytes.fill(0xff);
  EXPECT_THROW(commitment_from_bytes(r_bytes, "comm_r"), std::invalid_argument);
  EXPECT_THROW(commitment_from_bytes(porep::bytes32_t{}, "comm_d"), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
