// Registered SnapDeals proofs (rust-filecoin-proofs-api src/registry.rs
// RegisteredUpdateProof: enum order, sector_size(); filecoin-ffi
// rust/src/proofs/types.rs keeps the same names and numbers).
#include <gtest/gtest.h>

#include "filecoin/registered_update_proof_t.hpp"

namespace cuzk::filecoin {
namespace {

constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;

TEST(UpdateRegisteredProof, FiveInEnumOrder) {
  const auto all = registered_update_proofs();
  ASSERT_EQ(all.size(), 5u);
  const char* names[] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1", "StackedDrg32GiBV1",
                         "StackedDrg64GiBV1"};
  const std::uint64_t sizes[] = {2 * kib, 8 * mib, 512 * mib, 32 * gib, 64 * gib};
  for (std::uint64_t id = 0; id < 5; ++id) {
    const auto& p = all[id];
    EXPECT_EQ(p.id, id);
    EXPECT_EQ(p.name(), names[id]);
    EXPECT_EQ(p.sector_bytes, sizes[id]);
    EXPECT_EQ(&update_proof_by_id(id), &p);
    EXPECT_EQ(&update_proof_by_name(names[id]), &p);
    EXPECT_EQ(parse_registered_update_proof(std::to_string(id)), id);
    EXPECT_EQ(parse_registered_update_proof(names[id]), id);
    EXPECT_EQ(p.parameter_kind(), parameter_kind_t::snap_deals);
    const auto shape = p.shape();
    EXPECT_EQ(shape.sector_bytes, p.sector_bytes);
    EXPECT_EQ(shape.partitions, id < 2 ? (id == 0 ? 1u : 4u) : 16u);
    EXPECT_EQ(shape.challenges, id < 2 ? 10u : 86u);
  }
  // Tree R as PoRep's at the production sizes: 8-8-0 at 32 GiB, 8-8-2 at 64 GiB.
  EXPECT_EQ(update_proof_by_id(3).shape().sub_arity, 8u);
  EXPECT_EQ(update_proof_by_id(3).shape().top_arity, 0u);
  EXPECT_EQ(update_proof_by_id(4).shape().top_arity, 2u);
  EXPECT_EQ(parse_registered_update_proof(""), std::nullopt);
}

TEST(UpdateRegisteredProof, RejectsUnknown) {
  try {
    update_proof_by_id(5);
    ADD_FAILURE() << "id 5 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "registered update proof 5 is not one of 0..4 (StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1)");
  }
  EXPECT_THROW(update_proof_by_name("StackedDrg32GiBV1_1"), std::invalid_argument);
  EXPECT_THROW(update_proof_by_name("StackedDrg1KiBV1"), std::invalid_argument);
  EXPECT_THROW(parse_registered_update_proof("5"), std::invalid_argument);
  EXPECT_THROW(parse_registered_update_proof("3x"), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
