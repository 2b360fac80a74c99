// Registered PoSt proofs (rust-filecoin-proofs-api src/registry.rs
// RegisteredPoStProof: enum order, version(), sector_size(), typ(),
// sector_count(), as_v1_config(); filecoin-ffi rust/src/proofs/types.rs for the
// FFI's V1_1 spelling of proofs-api V1_2).
#include <gtest/gtest.h>

#include "filecoin/registered_post_proof_t.hpp"

namespace cuzk::filecoin {
namespace {

using porep::api_version_t;
using porep::post_kind_t;
constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;

TEST(PostRegisteredProof, FifteenInEnumOrder) {
  const auto all = registered_post_proofs();
  ASSERT_EQ(all.size(), 15u);
  const char* api_names[] = {
      "StackedDrgWinning2KiBV1",  "StackedDrgWinning8MiBV1",  "StackedDrgWinning512MiBV1",
      "StackedDrgWinning32GiBV1", "StackedDrgWinning64GiBV1", "StackedDrgWindow2KiBV1",
      "StackedDrgWindow8MiBV1",   "StackedDrgWindow512MiBV1", "StackedDrgWindow32GiBV1",
      "StackedDrgWindow64GiBV1",  "StackedDrgWindow2KiBV1_2", "StackedDrgWindow8MiBV1_2",
      "StackedDrgWindow512MiBV1_2", "StackedDrgWindow32GiBV1_2", "StackedDrgWindow64GiBV1_2"};
  const std::uint64_t sizes[] = {2 * kib, 8 * mib, 512 * mib, 32 * gib, 64 * gib};
  for (std::uint64_t id = 0; id < 15; ++id) {
    const auto& p = all[id];
    EXPECT_EQ(p.id, id);
    EXPECT_EQ(p.name(), api_names[id]);
    EXPECT_EQ(p.sector_bytes, sizes[id % 5]);
    EXPECT_EQ(p.kind, id < 5 ? post_kind_t::winning : post_kind_t::window);
    EXPECT_EQ(p.api_version, id < 10 ? api_version_t::v1_0 : api_version_t::v1_2);
    EXPECT_EQ(&post_proof_by_id(id), &p);
    EXPECT_EQ(&post_proof_by_name(p.name()), &p);
    EXPECT_EQ(&post_proof_by_name(p.ffi_name()), &p);
    EXPECT_EQ(parse_registered_post_proof(std::to_string(id)), id);
    EXPECT_EQ(&post_proof_for(p.kind, p.sector_bytes, p.api_version), &p);
    const auto shape = p.shape();
    EXPECT_EQ(shape.challenges_per_sector, id < 5 ? 66u : 10u);
    EXPECT_EQ(shape.sectors_per_partition, id < 5 ? 1u : id % 5 == 3 ? 2349u : id % 5 == 4 ? 2300u : 2u);
    EXPECT_EQ(shape.sector.sector_bytes, p.sector_bytes);
    EXPECT_EQ(p.parameter_kind(), id < 5 ? parameter_kind_t::winning_post : parameter_kind_t::window_post);
  }
  EXPECT_EQ(post_proof_by_id(13).ffi_name(), "StackedDrgWindow32GiBV1_1");
  EXPECT_EQ(post_proof_by_id(3).ffi_name(), "StackedDrgWinning32GiBV1");
  EXPECT_EQ(parse_registered_post_proof("StackedDrgWindow32GiBV1_1"), 13u);
  EXPECT_EQ(parse_registered_post_proof("StackedDrgWindow32GiBV1_2"), 13u);
  EXPECT_EQ(parse_registered_post_proof(""), std::nullopt);
  // API 1.1 reads as 1.0 ("PoSt did not change between ApiVersion V1_0_0 and V1_1_0").
  EXPECT_EQ(post_proof_for(post_kind_t::window, 32 * gib, api_version_t::v1_1).id, 8u);
}

TEST(PostRegisteredProof, RejectsUnknown) {
  EXPECT_THROW(post_proof_by_id(15), std::invalid_argument);
  EXPECT_THROW(post_proof_by_name("StackedDrgWinning32GiBV1_1"), std::invalid_argument);
  EXPECT_THROW(post_proof_by_name("StackedDrg32GiBV1_1"), std::invalid_argument);
  EXPECT_THROW(parse_registered_post_proof("15"), std::invalid_argument);
  EXPECT_THROW(parse_registered_post_proof("3x"), std::invalid_argument);
  EXPECT_THROW(post_proof_for(post_kind_t::winning, 32 * gib, api_version_t::v1_2), std::invalid_argument);
  EXPECT_THROW(post_proof_for(post_kind_t::window, 4 * kib, api_version_t::v1_0), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
