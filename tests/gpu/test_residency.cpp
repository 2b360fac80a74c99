// The residency plan (gpu/residency.hpp): which query goes on the device and
// which is streamed from host memory, from the device's room. Plain C++: runs
// in CI without a GPU.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/residency.hpp"

using namespace cuzk::gpu;

namespace {

constexpr uint64_t gib = uint64_t(1) << 30;

// The 32 GiB PoRep queries (H, L, A, B_g1 in G1, B_g2 in G2; 96 / 192-byte
// points) with windows of 2^24 points.
std::vector<residency_set_t> porep32_sets() {
  const uint64_t w1 = 2 * (uint64_t(1) << 24) * 96, w2 = 2 * (uint64_t(1) << 24) * 192;
  return {{(uint64_t(1) << 27) * 96, w1}, {130'000'000ull * 96, w1}, {100'000'000ull * 96, w1},
          {60'000'000ull * 96, w1}, {60'000'000ull * 192, w2}};
}

}  // namespace

TEST(residency, names_round_trip_and_unknown_modes_are_refused) {
  for (auto t : {residency_t::device, residency_t::pinned, residency_t::pageable})
    EXPECT_EQ(parse_residency(residency_name(t)), t);
  EXPECT_FALSE(parse_residency("mmap"));
  EXPECT_FALSE(residency_policy_t::parse("auto").forced);
  EXPECT_EQ(residency_policy_t::parse("pinned").mode(), "pinned");
  EXPECT_THROW(residency_policy_t::parse("hot"), std::invalid_argument);
}

TEST(residency, auto_puts_everything_on_a_device_with_room) {
  const auto sets = porep32_sets();
  const auto plan = plan_residency(sets, 140 * gib, 40 * gib, residency_policy_t{});
  EXPECT_EQ(plan.tiers, std::vector<residency_t>(5, residency_t::device));
  EXPECT_EQ(plan.streamed_bytes, 0u);
  uint64_t total = 0;
  for (const auto& s : sets) total += s.bytes;
  EXPECT_EQ(plan.device_bytes, total);
}

TEST(residency, auto_keeps_the_largest_sets_that_fit_and_streams_the_rest) {
  const auto sets = porep32_sets();
  // 40 GiB of room; all streamed the windows take 18. Largest first: H (12
  // GiB) and L (11.6) move to the device (35.6 GiB used), B_g2 (10.7, its
  // windows 6) and A (8.9) no longer fit, B_g1 (5.4) does (38.0).
  const auto plan = plan_residency(sets, 46 * gib, 6 * gib, residency_policy_t{});
  uint64_t device = 0;
  for (size_t i = 0; i < sets.size(); ++i) {
    device += plan.tiers[i] == residency_t::device ? sets[i].bytes : sets[i].window_bytes;
    EXPECT_NE(plan.tiers[i], residency_t::pageable);  // auto pins what it streams
  }
  EXPECT_LE(device, 40 * gib);
  EXPECT_EQ(plan.tiers, (std::vector<residency_t>{residency_t::device, residency_t::device, residency_t::pinned,
                                                  residency_t::device, residency_t::pinned}));
  EXPECT_GT(plan.streamed_bytes, 0u);
  EXPECT_EQ(plan.device_bytes + plan.streamed_bytes, [&] {
    uint64_t t = 0;
    for (const auto& s : sets) t += s.bytes;
    return t;
  }());
  // Every set promoted raises the device use; none left out would still fit.
  for (size_t i = 0; i < sets.size(); ++i) {
    if (plan.tiers[i] == residency_t::device) continue;
    EXPECT_GT(device - sets[i].window_bytes + sets[i].bytes, 40 * gib) << "set " << i << " would have fit";
  }
}

TEST(residency, forced_tiers_and_what_does_not_fit) {
  const auto sets = porep32_sets();
  const auto pinned = plan_residency(sets, 140 * gib, 10 * gib, residency_policy_t::parse("pinned"));
  EXPECT_EQ(pinned.tiers, std::vector<residency_t>(5, residency_t::pinned));
  EXPECT_EQ(pinned.device_bytes, 0u);
  const auto pageable = plan_residency(sets, 140 * gib, 10 * gib, residency_policy_t::parse("pageable"));
  EXPECT_EQ(pageable.tiers, std::vector<residency_t>(5, residency_t::pageable));
  // Forced device on a 16 GiB card: refused with the numbers.
  try {
    plan_residency(sets, 16 * gib, 4 * gib, residency_policy_t::parse("device"));
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("12.00 GiB are free"), std::string::npos) << what;
    EXPECT_NE(what.find("use auto, pinned or pageable"), std::string::npos) << what;
  }
  // Auto where even the windows do not fit: all pinned, and it says so
  // (the prover then tries smaller windows); streamed tiers never throw.
  const auto tight = plan_residency(sets, 8 * gib, 6 * gib, residency_policy_t{});
  EXPECT_FALSE(tight.fits);
  EXPECT_EQ(tight.tiers, std::vector<residency_t>(5, residency_t::pinned));
  EXPECT_EQ(tight.device_need, 18 * gib);
  EXPECT_EQ(tight.room, 2 * gib);
  EXPECT_FALSE(plan_residency(sets, 8 * gib, 6 * gib, residency_policy_t::parse("pinned")).fits);
  EXPECT_TRUE(pinned.fits);
  // A small set streamed costs more device memory (two windows) than it holds:
  // auto moves it to the device even when nothing else fits.
  const residency_set_t tiny[] = {{100 * gib, 4 * gib}, {1000, 2000}};
  const auto plan = plan_residency(tiny, 10 * gib, 0, residency_policy_t{});
  EXPECT_EQ(plan.tiers, (std::vector<residency_t>{residency_t::pinned, residency_t::device}));
  EXPECT_EQ(plan.describe(std::vector<std::string_view>{"h", "l"}), "h pinned, l device");
}

// Claims of the parameter sets one device proves with (the sizes of the
// official 32 GiB files: WinningPoSt 0.18 GiB critical, WindowPoSt 56.6 GiB
// high, PoRep 44.1 GiB normal; ranks are engine::priority_t's numbers).
namespace {
std::vector<residency_claim_t> post_and_porep_claims(bool winning_built, bool window_built) {
  const uint64_t mib = uint64_t(1) << 20;
  return {{"porep-32g", 2, 45'177 * mib, false},
          {"wpost-32g", 3, 57'968 * mib, window_built},
          {"winning-32g", 4, 184 * mib, winning_built}};
}
}  // namespace

TEST(residency, a_set_leaves_room_for_unbuilt_sets_of_higher_rank_only) {
  const uint64_t mib = uint64_t(1) << 20;
  const auto none_built = post_and_porep_claims(false, false);
  // PoRep first: it leaves both PoSt sets their bytes.
  EXPECT_EQ(held_for_higher_ranks(none_built, "porep-32g", 130 * gib), (57'968 + 184) * mib);
  // WindowPoSt leaves WinningPoSt its room, never PoRep's.
  EXPECT_EQ(held_for_higher_ranks(none_built, "wpost-32g", 130 * gib), 184 * mib);
  EXPECT_EQ(held_for_higher_ranks(none_built, "winning-32g", 130 * gib), 0u);
  // Built sets hold their bytes already (not in the free memory given).
  EXPECT_EQ(held_for_higher_ranks(post_and_porep_claims(true, false), "porep-32g", 130 * gib), 57'968 * mib);
  EXPECT_EQ(held_for_higher_ranks(post_and_porep_claims(true, true), "porep-32g", 130 * gib), 0u);
  // A set with no claim (registered parameters) leaves nothing.
  EXPECT_EQ(held_for_higher_ranks(none_built, "hash-chain-65536", 130 * gib), 0u);
}

TEST(residency, what_a_set_leaves_is_bounded_by_the_room_highest_rank_first) {
  const uint64_t mib = uint64_t(1) << 20;
  const auto claims = post_and_porep_claims(false, false);
  // 10 GiB of room: WinningPoSt's 184 MiB first, then what is left for WindowPoSt.
  EXPECT_EQ(held_for_higher_ranks(claims, "porep-32g", 10 * gib), 10 * gib);
  EXPECT_EQ(held_for_higher_ranks(claims, "porep-32g", 100 * mib), 100 * mib);
  EXPECT_EQ(held_for_higher_ranks(claims, "porep-32g", 0), 0u);
  // Same rank: first come, first placed (nothing held for a peer).
  std::vector<residency_claim_t> peers = {{"porep-32g", 2, 40 * gib, false}, {"snap-32g", 2, 30 * gib, false}};
  EXPECT_EQ(held_for_higher_ranks(peers, "porep-32g", 100 * gib), 0u);
  // What is held, then planned: PoRep's queries in the room that is left
  // stream, WindowPoSt's then fit whole in what it was left.
  const auto sets = porep32_sets();
  const uint64_t free = 120 * gib, reserve = 40 * gib;
  const uint64_t held = held_for_higher_ranks(claims, "porep-32g", free);
  const auto porep = plan_residency(sets, free - held, reserve, residency_policy_t{});
  EXPECT_LT(porep.device_bytes, 30 * gib);
  EXPECT_GT(porep.streamed_bytes, 0u);
  EXPECT_LE(porep.device_need + 57'968 * mib + 184 * mib, free - reserve);
}
