// The engine's building blocks on their own: byte budget and reservations,
// the keyed queue, gauges, footprints and the planner.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "engine/engine.hpp"
#include "engine/gauge_t.hpp"
#include "engine/keyed_queue_t.hpp"
#include "engine/memory_budget_t.hpp"
#include "r1cs/compact_assignment_t.hpp"

using namespace cuzk::engine;

TEST(engine_budget, reserve_shrink_release_and_never_over_total) {
  uint64_t peak = 0;
  memory_budget_t b(100, [&](std::string_view, uint64_t p, uint64_t r) {
    EXPECT_LE(p + r, 100u);
    peak = std::max(peak, p + r);
  });
  auto r1 = b.try_reserve(60);
  ASSERT_TRUE(r1);
  EXPECT_FALSE(b.try_reserve(41));  // 60 + 41 > 100
  auto r2 = b.try_reserve(40);
  ASSERT_TRUE(r2);
  EXPECT_EQ(b.reserved(), 100u);
  r1->shrink_to(10);
  EXPECT_EQ(b.reserved(), 50u);
  r1->shrink_to(20);  // growing is not shrinking: ignored
  EXPECT_EQ(r1->bytes(), 10u);
  { reservation_t moved = std::move(*r2); }
  EXPECT_EQ(b.reserved(), 10u);
  r1->release();
  EXPECT_EQ(b.reserved(), 0u);
  EXPECT_EQ(peak, 100u);
  EXPECT_FALSE(b.reserve(101, nullptr));  // larger than the whole budget: refused, not a hang
}

TEST(engine_budget, blocked_reserve_wakes_on_release_and_abandons_on_request) {
  memory_budget_t b(10);
  auto held = b.try_reserve(8);
  std::atomic<bool> got{false};
  std::thread t([&] {
    auto r = b.reserve(5, nullptr);
    got = r.has_value();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(got);  // still blocked: 8 + 5 > 10
  held->release();
  t.join();
  EXPECT_TRUE(got);
  EXPECT_EQ(b.reserved(), 0u);  // the thread's reservation went out of scope

  auto full = b.try_reserve(10);
  std::atomic<bool> abandon{false}, returned{false};
  std::thread u([&] {
    auto r = b.reserve(1, [&] { return abandon.load(); });
    EXPECT_FALSE(r);
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(returned);
  abandon = true;
  b.wake_all();
  u.join();
  EXPECT_TRUE(returned);
}

TEST(engine_budget, pooled_bytes_move_between_reservations_and_never_over_total) {
  memory_budget_t b(100, [&](std::string_view, uint64_t p, uint64_t r) { EXPECT_LE(p + r, 100u); });
  // A partition of 60 whose prove_start left 40 bytes of buffers in a pool.
  auto done = b.try_reserve(60);
  ASSERT_TRUE(done);
  b.bank(*done, 40);
  EXPECT_EQ(done->bytes(), 20u);
  EXPECT_EQ(b.pooled_bytes(), 40u);
  EXPECT_EQ(b.reserved(), 60u) << "banking moves bytes, it frees none";
  done->release();
  EXPECT_EQ(b.reserved(), 40u);

  // 70 fits only by taking over at least 10 pooled bytes; the claim gets (min, max) = (10, 40).
  uint64_t asked_min = 0, asked_max = 0;
  auto refuse = [&](uint64_t min, uint64_t max, bool) {
    asked_min = min;
    asked_max = max;
    return uint64_t(0);
  };
  EXPECT_FALSE(b.try_reserve(70, false, refuse));
  EXPECT_EQ(asked_min, 10u);
  EXPECT_EQ(asked_max, 40u);
  EXPECT_FALSE(b.try_reserve(70)) << "without a claim pooled bytes are not free";
  EXPECT_FALSE(b.try_reserve(70, true, [](uint64_t, uint64_t max, bool) { return max; })) << "parameters claim nothing";
  auto next = b.try_reserve(70, false, [](uint64_t, uint64_t max, bool) { return max; });
  ASSERT_TRUE(next);
  EXPECT_EQ(next->bytes(), 70u);
  EXPECT_EQ(b.pooled_bytes(), 0u);
  EXPECT_EQ(b.reserved(), 70u);

  // Buffers freed from the pool give their pooled bytes back, never more than are pooled.
  b.bank(*next, 30);
  b.unbank(50);
  EXPECT_EQ(b.pooled_bytes(), 0u);
  EXPECT_EQ(b.reserved(), 40u);
}

TEST(engine_budget, blocked_reserve_asks_the_reclaimer_to_free_unclaimed_pooled_bytes) {
  memory_budget_t b(100);
  auto r = b.try_reserve(50);
  b.bank(*r, 50);
  r->release();
  std::vector<uint64_t> asked;
  b.set_reclaimer([&](uint64_t bytes) {
    asked.push_back(bytes);
    b.unbank(bytes);
  });
  // A parameter load (no claim) needing 80: 30 in the way, reclaimed without waiting.
  auto params = b.reserve(80, nullptr, true);
  ASSERT_TRUE(params);
  EXPECT_EQ(asked, std::vector<uint64_t>{30});
  EXPECT_EQ(b.pooled_bytes(), 20u);
  EXPECT_EQ(b.reserved(), 100u);
}

TEST(engine_queue, smallest_key_first_bounded_and_duplicates_rejected) {
  keyed_queue_t<int, std::string> q(2);
  ASSERT_TRUE(q.push(5, "five"));
  EXPECT_THROW(q.push(5, "again"), std::logic_error);  // never replaces an entry
  ASSERT_TRUE(q.push(1, "one"));
  std::atomic<bool> pushed{false};
  std::thread t([&] {
    q.push(3, "three");  // blocks: full
    pushed = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(pushed);
  EXPECT_EQ(*q.pop(), "one");
  t.join();
  EXPECT_TRUE(pushed);
  EXPECT_EQ(*q.pop([](const std::string& s) { return s != "three"; }), "five");
  // Full again: an item pushed past capacity goes in at once, first by its key.
  ASSERT_TRUE(q.push(4, "four"));
  ASSERT_TRUE(q.push(0, "zero", true));
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(*q.pop(), "zero");
  EXPECT_EQ(*q.pop(), "three");
  EXPECT_EQ(*q.pop(), "four");
  ASSERT_TRUE(q.push(3, "three"));
  auto taken = q.extract_if([](const std::string& s) { return s == "three"; });
  EXPECT_EQ(taken.size(), 1u);
  EXPECT_EQ(q.peak(), 3u);
  q.close();
  EXPECT_FALSE(q.pop());
  EXPECT_FALSE(q.push(9, "late"));
}

TEST(engine_gauges, raii_places_move_and_return_to_zero) {
  std::vector<std::string> events;
  gauge_set_t g([&](std::string_view ev, const gauge_snapshot_t& s) {
    events.emplace_back(ev);
    EXPECT_GE(s.synthesizing, 0);
    EXPECT_GE(s.queued, 0);
  });
  {
    gauge_t a(g), b(g);
    a.enter(gauge_kind_t::synthesizing, "synth_start");
    b.enter(gauge_kind_t::synthesizing, "synth_start");
    a.enter(gauge_kind_t::queued, "synth_done");
    EXPECT_EQ(g.snapshot().synthesizing, 1);
    EXPECT_EQ(g.snapshot().queued, 1);
    gauge_t c = std::move(a);  // the count moves with its owner, not duplicated
    EXPECT_EQ(g.snapshot().queued, 1);
  }
  EXPECT_EQ(g.snapshot(), gauge_snapshot_t{});
  EXPECT_EQ(events.size(), 5u);  // 3 transitions + 2 drops
}

TEST(engine_budget, footprint_follows_the_shape) {
  // The PoRep 32 GiB partition (DESIGN.md 1): 130,278,869 constraints with
  // inputs, 328 inputs, 130,169,893 aux -> domain 2^27.
  cuzk::r1cs::shape_counts_t s{130'278'869 + 328, 328, 130'169'893};
  auto f = partition_footprint(s);
  EXPECT_EQ(f.domain, uint64_t(1) << 27);
  const uint64_t abc_h = 4 * 32 * f.domain, vars = uint64_t(32) * (328 + 130'169'893);
  EXPECT_GE(f.working, abc_h + vars);
  EXPECT_LT(f.working, abc_h + vars + (uint64_t(64) << 20));  // bitmaps: ~32 MiB
  EXPECT_GE(f.pending, vars);
  EXPECT_LT(f.pending, vars + (uint64_t(1) << 20));
  // At 2^27 a, b, c alone are the 12 GiB of DESIGN.md 4.
  EXPECT_EQ(3 * 32 * f.domain, 12 * gib);
  // Twice the constraints, twice the domain-sized part.
  auto g = partition_footprint({2 * (130'278'869 + 328), 328, 130'169'893});
  EXPECT_EQ(g.working - f.working, abc_h);
  // On a GPU: no host H, no canonical copies for B_g2; the witness part is all of working.
  auto d = gpu_partition_footprint(s);
  EXPECT_EQ(d.domain, f.domain);
  EXPECT_EQ(d.working, f.working - 32 * f.domain);
  EXPECT_EQ(d.pending, uint64_t(32) * 328 + sizeof(cuzk::groth16::pending_proof_t));
  EXPECT_GE(d.witness, 3 * 32 * f.domain + vars);
  EXPECT_LE(d.witness, d.working);
  EXPECT_LT(d.full(), 16 * gib);  // ~15.9 GiB at 32 GiB PoRep
  // A compact witness formed on the GPU (issue 18): synthesis holds the
  // assignment and its packed copy, bounded as if every aux value were wide
  // (3 bitmap words per 64 values + 32 B each), then prove_start's four
  // density bitmaps; no domain-sized vector at all.
  auto k = gpu_compact_partition_footprint(s);
  const uint64_t words = (130'169'893 + 63) / 64, in_words = (328 + 63) / 64;
  EXPECT_EQ(k.domain, f.domain);
  EXPECT_EQ(k.working, vars + (3 * 8 * words + 32 * uint64_t(130'169'893)) + 2 * 8 * (in_words + words));
  EXPECT_EQ(k.pending, d.pending);
  EXPECT_EQ(k.working, gpu_compact_partition_footprint({2 * (130'278'869 + 328), 328, 130'169'893}).working);
  EXPECT_LT(k.full(), 8 * gib);  // ~7.8 GiB, against ~15.9 eager
  EXPECT_LE(k.witness, k.working);
  // With the compiled rows' bound on values other than 0 and 1 (32 GiB PoRep:
  // about 1.70 M of the aux, bm_porep_wide_bound): the inputs, the slots'
  // wide values and their packed copy, the bitmaps.
  const uint64_t wide = 1'700'000;
  auto b = gpu_compact_partition_footprint(s, wide);
  EXPECT_EQ(b.working, 32 * uint64_t(328) + 2 * 32 * wide + 3 * 8 * words + 2 * 8 * (in_words + words));
  EXPECT_EQ(b.pending, d.pending);
  EXPECT_LT(b.full(), gib / 4);  // ~0.16 GiB: issue 18's <= 1 GiB per partition
  EXPECT_EQ(gpu_compact_partition_footprint(s, uint64_t(1) << 40).working, k.working);  // capped at every aux
  EXPECT_EQ(compact_assignment_max_bytes(64), 3 * 8 + 32 * 64);
  EXPECT_EQ(compact_assignment_max_bytes(64, 5), 3 * 8 + 32 * 5);
  EXPECT_EQ(density_bytes({1, 65, 1}), 2 * 16 + 2 * 8);
}

// The bound holds for the worst witness: every value wide, packed.
TEST(engine_budget, compact_bound_covers_a_witness_of_wide_values) {
  for (const size_t n : {size_t(1), size_t(63), size_t(64), size_t(65), size_t(200'000)}) {
    std::vector<cuzk::ff::fr_t> v(n, cuzk::ff::fr_t::from_u64(7));
    const auto packed = cuzk::r1cs::compact_assignment_t::pack(v);
    EXPECT_EQ(packed.bytes(), compact_assignment_max_bytes(n)) << n;
    std::vector<cuzk::ff::fr_t> bits(n, cuzk::ff::fr_t::one());
    EXPECT_LT(cuzk::r1cs::compact_assignment_t::pack(bits).bytes(), compact_assignment_max_bytes(n)) << n;
  }
}

TEST(engine_budget, planner_derives_workers_and_checks_devices) {
  engine_config_t c;
  c.total_budget = 10 * gib;
  c.gpu_workers_per_device = 3;
  c.queue_depth_per_worker = 2;
  c.synthesis_threads = 4;
  auto p = plan_budget(c, 2);
  EXPECT_EQ(p.devices, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(p.prove_workers, 6u);
  EXPECT_EQ(p.gpu_queue_capacity, 12u);
  EXPECT_EQ(p.total, 10 * gib);
  c.devices = {2};
  EXPECT_THROW(plan_budget(c, 2), std::invalid_argument);
  c.devices = {};
  c.total_budget = 0;  // auto: MemTotal - margin
  auto a = plan_budget(c, 1);
  EXPECT_EQ(a.total + c.safety_margin, read_mem_total());
  partition_footprint_t f{1, 3 * gib, 1 * gib};
  EXPECT_EQ(partitions_in_flight(10 * gib, 2 * gib, f), 2u);
  EXPECT_EQ(partitions_in_flight(10 * gib, 7 * gib, f), 0u);
}

TEST(engine_budget, process_memory_reads_the_kernel_high_water_mark) {
  auto m = read_process_memory();
  EXPECT_GT(m.rss_bytes, 0u);
  EXPECT_GE(m.peak_rss_bytes, m.rss_bytes);  // one snapshot: the peak is never below the current value
  // A 256 MiB spike that is touched and freed stays in the peak. Other
  // threads of the test binary (earlier tests' pools and CUDA helpers) may
  // free memory meanwhile, so the spike is measured against a snapshot taken
  // right before it, a few times over: one clean attempt shows it.
  constexpr size_t spike = size_t{256} << 20;
  bool seen = false;
  uint64_t before_rss = 0;
  for (int attempt = 0; attempt < 5 && !seen; ++attempt) {
    before_rss = read_process_memory().rss_bytes;
    std::vector<unsigned char> buf(spike, 1);
    volatile unsigned char sink = buf[spike / 2];
    (void)sink;
    seen = read_process_memory().rss_bytes >= before_rss + spike / 2;
  }
  EXPECT_TRUE(seen) << "a touched 256 MiB buffer never showed in VmRSS";
  auto after = read_process_memory();
  EXPECT_GE(after.peak_rss_bytes, before_rss + spike / 2);
}
