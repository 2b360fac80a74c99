// How gpu_prover_t places a circuit's queries for a device's free memory
// (gpu_prover_t::plan): which live on the device, and whether the MSMs run
// one at a time to make room for them. Plain C++: runs in CI without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "groth16/gpu_prover.hpp"

using namespace cuzk;
using namespace cuzk::groth16;

namespace {

constexpr uint64_t gib = uint64_t(1) << 30;
using scratch = gpu_prover_options_t::msm_scratch_t;

// Query sizes of the shape of a full 32 GiB WindowPoSt partition (2^27
// domain; 56.6 GiB of points, of which B_g2 16.4 GiB: BENCHMARKS.md).
query_sizes_t window_post_32g() { return {1, (uint64_t(1) << 27) - 1, 125'000'000, 112'000'000, 91'700'000, 91'700'000}; }

// The query counts of a 32 GiB PoRep set (44.1 GiB of points), as `cuzk
// circuit-info --kind porep --sector-size 32GiB` derives them from the
// compiled rows.
query_sizes_t porep_32g() { return {328, (uint64_t(1) << 27) - 1, 130'169'893, 129'753'620, 33'112'282, 33'112'282}; }

bool all_device(const gpu_prover_t::plan_t& p) {
  return std::all_of(p.residency.tiers.begin(), p.residency.tiers.end(),
                     [](gpu::residency_t t) { return t == gpu::residency_t::device; });
}

gpu_prover_options_t with(scratch s) {
  gpu_prover_options_t o;
  o.msm_scratch = s;
  o.proofs_in_flight = 2;
  return o;
}

}  // namespace

TEST(gpu_prover_plan, one_msm_at_a_time_reserves_one_scratch_per_proof) {
  const auto q = window_post_32g();
  const uint64_t five = gpu_prover_t::working_bytes(q, 2, false), one = gpu_prover_t::working_bytes(q, 2, true);
  // Per proof a, b, c (3 x 2^27) and aux three times: 2 x 23.2 GiB; five
  // scratches (~61 GiB) against two of the largest (H's, 2 x ~14 GiB).
  EXPECT_GT(five, 100 * gib);
  EXPECT_LT(one, 80 * gib);
  EXPECT_GT(one, 70 * gib);
  EXPECT_GT(five - one, 30 * gib);
  // One proof in flight: one scratch, not two.
  EXPECT_LT(gpu_prover_t::working_bytes(q, 1, true), one - 10 * gib);
}

TEST(gpu_prover_plan, auto_runs_msms_one_at_a_time_where_that_streams_fewer_bytes) {
  const auto q = window_post_32g();
  // An H200's free memory: five scratches leave room for B_g2 only; one
  // at a time, every query fits.
  const auto per = gpu_prover_t::plan(q, with(scratch::per_query), 139 * gib);
  EXPECT_FALSE(per.one_at_a_time);
  EXPECT_FALSE(all_device(per));
  const auto h200 = gpu_prover_t::plan(q, with(scratch::automatic), 139 * gib);
  EXPECT_TRUE(h200.one_at_a_time);
  EXPECT_TRUE(all_device(h200));
  EXPECT_EQ(h200.residency.streamed_bytes, 0u);
  // Room for everything with five scratches: they stay (the MSMs overlap).
  const auto big = gpu_prover_t::plan(q, with(scratch::automatic), 300 * gib);
  EXPECT_FALSE(big.one_at_a_time);
  EXPECT_TRUE(all_device(big));
  // Five scratches leave room for one query, one scratch for three of them:
  // one at a time, as asked for, streaming less.
  const auto some_per = gpu_prover_t::plan(q, with(scratch::per_query), 125 * gib);
  const auto some = gpu_prover_t::plan(q, with(scratch::automatic), 125 * gib);
  const auto some_one = gpu_prover_t::plan(q, with(scratch::one_at_a_time), 125 * gib);
  EXPECT_GT(some_per.residency.device_bytes, 0u);
  EXPECT_FALSE(all_device(some_one));
  EXPECT_LT(some_one.residency.streamed_bytes, some_per.residency.streamed_bytes);
  EXPECT_TRUE(some.one_at_a_time);
  EXPECT_EQ(some.residency.tiers, some_one.residency.tiers);
  // Five scratches leave no room for any query: one at a time keeps some.
  EXPECT_EQ(gpu_prover_t::plan(q, with(scratch::per_query), 100 * gib).residency.device_bytes, 0u);
  const auto small = gpu_prover_t::plan(q, with(scratch::automatic), 100 * gib);
  EXPECT_TRUE(small.one_at_a_time);
  EXPECT_GT(small.residency.device_bytes, 0u);
  // Too small either way: per query, every query streamed.
  const auto tiny = gpu_prover_t::plan(q, with(scratch::automatic), 60 * gib);
  EXPECT_FALSE(tiny.one_at_a_time);
  EXPECT_EQ(tiny.residency.device_bytes, 0u);
}

// More free memory never makes the automatic plan send more bytes over PCIe
// per proof (before, 125 GiB streamed 49.6 GiB of a 32 GiB WindowPoSt set
// where 120 GiB streamed 19.4), for both 32 GiB shapes, one to three proofs
// in flight, from 40 to 320 GiB in steps of 1 GiB.
TEST(gpu_prover_plan, more_memory_never_streams_more) {
  for (const auto& [name, q] : {std::pair{"WindowPoSt", window_post_32g()}, std::pair{"PoRep", porep_32g()}}) {
    for (uint32_t proofs : {1u, 2u, 3u}) {
      auto o = with(scratch::automatic);
      o.proofs_in_flight = proofs;
      uint64_t last = ~uint64_t(0);
      for (uint64_t g = 40; g <= 320; ++g) {
        const auto p = gpu_prover_t::plan(q, o, g * gib);
        EXPECT_LE(p.residency.streamed_bytes, last) << name << ", " << proofs << " proofs in flight, " << g
                                                    << " GiB free";
        last = p.residency.streamed_bytes;
      }
    }
  }
}

// A 32 GiB PoRep set on an 80 GB H100:
// with one proof in flight five scratches (82 GiB with the proof's vectors)
// exceed the card, so per query every query streams (the H100 run of
// BENCHMARKS.md); one at a time (38 GiB) keeps most of the points on the
// device. With two proofs in flight every query streams either way, and only
// one at a time (76 GiB) fits the card: five scratches would plan 106 GiB of
// working memory on a 78 GiB card.
TEST(gpu_prover_plan, an_h100_holds_most_of_a_32g_porep_set_with_one_proof_in_flight) {
  const auto q = porep_32g();
  auto o = with(scratch::automatic);
  o.proofs_in_flight = 1;
  const uint64_t h100 = 78 * gib;
  auto per_o = o;
  per_o.msm_scratch = scratch::per_query;
  EXPECT_EQ(gpu_prover_t::plan(q, per_o, h100).residency.device_bytes, 0u);
  const auto p = gpu_prover_t::plan(q, o, h100);
  EXPECT_TRUE(p.one_at_a_time);
  EXPECT_GT(p.residency.device_bytes, 30 * gib);
  EXPECT_LT(p.residency.streamed_bytes, 15 * gib);
  EXPECT_LE(p.working + p.residency.device_need, h100);
  o.proofs_in_flight = 2;
  const auto two = gpu_prover_t::plan(q, o, h100);
  EXPECT_TRUE(two.one_at_a_time);
  EXPECT_TRUE(two.residency.fits);
  EXPECT_EQ(two.residency.device_bytes, 0u);
  EXPECT_LE(two.working + two.residency.device_need, h100);
  auto per_two = per_o;
  per_two.proofs_in_flight = 2;
  EXPECT_FALSE(gpu_prover_t::plan(q, per_two, h100).residency.fits);
}

TEST(gpu_prover_plan, a_given_reserve_is_used_for_both_and_names_parse) {
  const auto q = window_post_32g();
  auto o = with(scratch::automatic);
  o.residency.device_reserve = 40 * gib;  // room for every query either way: the MSMs overlap
  const auto p = gpu_prover_t::plan(q, o, 139 * gib);
  EXPECT_FALSE(p.one_at_a_time);
  EXPECT_TRUE(all_device(p));
  EXPECT_EQ(parse_msm_scratch("auto"), scratch::automatic);
  EXPECT_EQ(parse_msm_scratch("per-query"), scratch::per_query);
  EXPECT_EQ(parse_msm_scratch("one-at-a-time"), scratch::one_at_a_time);
  EXPECT_THROW(parse_msm_scratch("lean"), std::invalid_argument);
}

// More accumulation threads (gpu_prover_options_t::msm_threads) hold more
// chunk sums: per MSM about 5 bucket-sized points per extra thread (three
// per chunk, two per thread), 192 bytes each in G1 (XYZZ), 384 in G2. The
// planner reserves them; other thread counts are refused by name.
TEST(gpu_prover_plan, more_msm_threads_reserve_their_chunk_sums) {
  const auto q = window_post_32g();
  const uint64_t base = gpu_prover_t::working_bytes(q, 1, true);
  const uint64_t more = gpu_prover_t::working_bytes(q, 1, true, size_t(1) << 20);
  const uint64_t extra = (uint64_t(1) << 20) - (uint64_t(1) << 17);
  // The largest scratch decides (one at a time): at least a G1 MSM's growth,
  // at most a G2 MSM's (with slack for the chunk rounding).
  EXPECT_GE(more - base, 5 * extra * 192 * 9 / 10);
  EXPECT_LE(more - base, 5 * extra * 384 * 11 / 10);
  EXPECT_EQ(gpu_prover_t::working_bytes(q, 1, true, size_t(1) << 17), base);  // the default, spelled out
  EXPECT_NO_THROW(check_msm_threads(0));
  EXPECT_NO_THROW(check_msm_threads(4096));
  EXPECT_NO_THROW(check_msm_threads(uint64_t(1) << 22));
  for (uint64_t bad : {uint64_t(2048), uint64_t(100000), uint64_t(1) << 23}) {
    try {
      check_msm_threads(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(bad)), std::string::npos) << e.what();
    }
  }
}

// A wider H window ([gpus] h_window_bits = 22) holds more buckets: 12 windows
// of 2^21 signed-digit buckets instead of the cost model's 13 windows of 2^19
// (c = 20) at a 2^27 domain, 192 bytes each (G1 XYZZ), once per query's
// scratch (MSMs at once) and in the largest scratch (one at a time, where
// H's becomes the largest). Other widths are refused by name.
TEST(gpu_prover_plan, a_wider_h_window_reserves_its_buckets) {
  const auto q = window_post_32g();
  const uint64_t more_buckets = (12 * (uint64_t(1) << 21) - 13 * (uint64_t(1) << 19)) * 192;  // 3.28 GiB
  EXPECT_EQ(gpu_prover_t::working_bytes(q, 2, false, 0, 22) - gpu_prover_t::working_bytes(q, 2, false), more_buckets);
  EXPECT_EQ(gpu_prover_t::working_bytes(q, 2, false, 0, 20), gpu_prover_t::working_bytes(q, 2, false));
  EXPECT_GE(gpu_prover_t::working_bytes(q, 2, true, 0, 22), gpu_prover_t::working_bytes(q, 2, true));
  // Planned: with room for every query and five scratches but not 3.28 GiB
  // more, the wider window keeps the plan off the device for one query.
  gpu_prover_options_t o = with(scratch::per_query);
  const uint64_t points = (q.h + q.l + q.a + q.b_g1) * sizeof(g1_affine_t) + q.b_g2 * sizeof(g2_affine_t);
  const uint64_t free = points + gpu_prover_t::working_bytes(q, 2, false) + gib;
  EXPECT_TRUE(all_device(gpu_prover_t::plan(q, o, free)));
  // Automatic (0): the wider window only where it leaves the placement as it is.
  EXPECT_EQ(gpu_prover_t::plan(q, o, free).h_window_bits, 0u);
  EXPECT_EQ(gpu_prover_t::plan(q, o, free + more_buckets).h_window_bits, 22u);
  EXPECT_EQ(gpu_prover_t::plan(q, o, free + more_buckets).working, gpu_prover_t::working_bytes(q, 2, false, 0, 22));
  o.h_window_bits = 22;
  EXPECT_FALSE(all_device(gpu_prover_t::plan(q, o, free)));
  EXPECT_EQ(gpu_prover_t::plan(q, o, free).h_window_bits, 22u);  // asked for: kept, whatever it costs
  EXPECT_TRUE(all_device(gpu_prover_t::plan(q, o, free + more_buckets)));
  EXPECT_NO_THROW(check_h_window_bits(0));
  EXPECT_NO_THROW(check_h_window_bits(2));
  EXPECT_NO_THROW(check_h_window_bits(22));
  for (uint64_t bad : {uint64_t(1), uint64_t(23), uint64_t(64)}) {
    try {
      check_h_window_bits(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("h_window_bits " + std::to_string(bad)), std::string::npos) << e.what();
    }
  }
}

TEST(gpu_prover_plan, the_compiled_rows_are_planned_into_the_reserve) {
  const auto q = window_post_32g();
  const auto o = with(scratch::one_at_a_time);
  const uint64_t points = (q.h + q.l + q.a + q.b_g1) * sizeof(g1_affine_t) + q.b_g2 * sizeof(g2_affine_t);
  // Free memory for the reserve and every query with half a GiB to spare: all on the device...
  const uint64_t free = gpu_prover_t::working_bytes(q, 2, true) + points + gib / 2;
  EXPECT_TRUE(all_device(gpu_prover_t::plan(q, o, free)));
  EXPECT_EQ(gpu_prover_t::device_queries(q, o, free), 0x1fu);
  // ...unless the rows' GiB is planned too: then a query streams.
  auto with_rows = o;
  with_rows.rows_bytes = gib;
  EXPECT_FALSE(all_device(gpu_prover_t::plan(q, with_rows, free)));
  EXPECT_NE(gpu_prover_t::device_queries(q, with_rows, free), 0x1fu);
  // A given reserve is the operator's: the rows are not added to it.
  with_rows.residency.device_reserve = gpu_prover_t::working_bytes(q, 2, true);
  EXPECT_TRUE(all_device(gpu_prover_t::plan(q, with_rows, free)));
}

// h_window_bits = 0 picks 22 bits for H only at 2^26 points and above (where
// it was measured faster: G1 2^26 -1.9 %, 2^27 -3.3 %), only where the plan
// is otherwise the same, and never under an operator's device_reserve (which
// did not count its buckets) or a width asked for.
TEST(gpu_prover_plan, the_h_window_widens_only_where_nothing_else_changes) {
  const auto q = window_post_32g();
  auto o = with(scratch::automatic);
  const auto roomy = gpu_prover_t::plan(q, o, 300 * gib);
  EXPECT_EQ(roomy.h_window_bits, 22u);
  EXPECT_TRUE(all_device(roomy));
  EXPECT_EQ(roomy.working, gpu_prover_t::working_bytes(q, 2, roomy.one_at_a_time, 0, 22));
  // Where 22 bits would stream a query or change how the MSMs run: the cost model's.
  for (uint64_t free : {uint64_t(100) * gib, uint64_t(139) * gib, uint64_t(160) * gib}) {
    const auto p = gpu_prover_t::plan(q, o, free);
    auto narrow = o;
    narrow.h_window_bits = 20;  // the cost model's at 2^27
    const auto n = gpu_prover_t::plan(q, narrow, free);
    const bool same = p.residency.tiers == n.residency.tiers && p.one_at_a_time == n.one_at_a_time;
    EXPECT_TRUE(same) << free / gib << " GiB";
    if (p.h_window_bits == 22) {
      auto wide = o;
      wide.h_window_bits = 22;
      const auto w = gpu_prover_t::plan(q, wide, free);
      EXPECT_TRUE(w.residency.fits && w.residency.tiers == n.residency.tiers) << free / gib << " GiB";
    } else {
      EXPECT_EQ(p.h_window_bits, 0u) << free / gib << " GiB";
    }
  }
  // Below 2^26 points, asked for, or under a given reserve: unchanged.
  query_sizes_t small = q;
  small.h = (uint64_t(1) << 25) - 1;
  EXPECT_EQ(gpu_prover_t::plan(small, o, 300 * gib).h_window_bits, 0u);
  o.h_window_bits = 20;
  EXPECT_EQ(gpu_prover_t::plan(q, o, 300 * gib).h_window_bits, 20u);
  o.h_window_bits = 0;
  o.residency.device_reserve = 100 * gib;
  EXPECT_EQ(gpu_prover_t::plan(q, o, 300 * gib).h_window_bits, 0u);
}

// Another parameter set's prover on the same device (gpu_backend_t passes
// its working reserve as reserve_floor): the proofs of both share the
// device's workers, so the device keeps the larger reserve beside both
// sets' bases. A floor above this set's own reserve moves its queries off
// the device where its own would not; one below changes nothing.
TEST(gpu_prover_plan, a_reserve_floor_keeps_the_other_sets_working_memory) {
  const auto q = window_post_32g();
  auto o = with(scratch::automatic);
  o.h_window_bits = 20;
  const auto alone = gpu_prover_t::plan(q, o, 139 * gib);
  ASSERT_TRUE(all_device(alone));
  ASSERT_TRUE(alone.one_at_a_time);
  EXPECT_EQ(alone.working, gpu_prover_t::working_bytes(q, 2, true, 0, 20));
  o.reserve_floor = alone.working - gib;
  const auto below = gpu_prover_t::plan(q, o, 139 * gib);
  EXPECT_EQ(below.residency.tiers, alone.residency.tiers);
  EXPECT_EQ(below.working, alone.working);
  o.reserve_floor = alone.working + 20 * gib;
  const auto above = gpu_prover_t::plan(q, o, 139 * gib);
  EXPECT_FALSE(all_device(above));
  EXPECT_EQ(above.working, std::max(o.reserve_floor, gpu_prover_t::working_bytes(q, 2, above.one_at_a_time, 0, 20)));
  EXPECT_LE(above.residency.device_need, 139 * gib - above.working);
  // The rows still come on top of the floor.
  o.rows_bytes = gib;
  const auto rows = gpu_prover_t::plan(q, o, 139 * gib);
  EXPECT_EQ(rows.residency.room, 139 * gib - rows.working - gib);
}

// The hint for operators (gpu_prover_t::fewer_workers): a 32 GiB PoRep set
// on an 80 GB card streams every query (44.12 GiB per proof) with two workers
// and keeps more than 35 GiB on the device with one (measured on an H100:
// 20.0 against 28.9 s/proof, BENCHMARKS.md). Where two workers stream
// nothing (an H200) there is no hint; nor under a given reserve, a forced
// tier, or one worker. The hint's plan is the plan for its worker count.
TEST(gpu_prover_plan, fewer_workers_are_hinted_where_they_stream_fewer_bytes) {
  const auto q = porep_32g();
  gpu_prover_options_t o;  // the defaults: automatic everything, two workers
  ASSERT_EQ(o.proofs_in_flight, 2u);
  const uint64_t h100 = 78 * gib;
  const auto f = gpu_prover_t::fewer_workers(q, o, h100);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->workers, 1u);
  EXPECT_TRUE(f->plan.residency.fits);
  EXPECT_GT(f->plan.residency.device_bytes, 35 * gib);
  EXPECT_LT(f->plan.residency.streamed_bytes, 8 * gib);
  EXPECT_EQ(gpu_prover_t::plan(q, o, h100).residency.device_bytes, 0u);
  auto one = o;
  one.proofs_in_flight = 1;
  EXPECT_EQ(gpu_prover_t::plan(q, one, h100).residency.streamed_bytes, f->plan.residency.streamed_bytes);
  EXPECT_EQ(gpu_prover_t::plan(q, one, h100).working, f->plan.working);
  EXPECT_FALSE(gpu_prover_t::fewer_workers(q, one, h100).has_value());
  // Three workers: one is still the fewest bytes.
  auto three = o;
  three.proofs_in_flight = 3;
  ASSERT_TRUE(gpu_prover_t::fewer_workers(q, three, h100).has_value());
  EXPECT_EQ(gpu_prover_t::fewer_workers(q, three, h100)->workers, 1u);
  // An H200 holds the set with two: no hint.
  EXPECT_EQ(gpu_prover_t::plan(q, o, 139 * gib).residency.streamed_bytes, 0u);
  EXPECT_FALSE(gpu_prover_t::fewer_workers(q, o, 139 * gib).has_value());
  // The operator's choices: no hint.
  auto given = o;
  given.residency.device_reserve = 60 * gib;
  EXPECT_FALSE(gpu_prover_t::fewer_workers(q, given, h100).has_value());
  auto forced = o;
  forced.residency.forced = gpu::residency_t::pinned;
  EXPECT_FALSE(gpu_prover_t::fewer_workers(q, forced, h100).has_value());
}
