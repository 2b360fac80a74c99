// WindowPoSt and WinningPoSt as engine jobs: their circuit ids (the
// PreloadSrs ids of CUZK_API.md, sized by the registered proof), refusals
// as invalid_request, and WinningPoSt's default priority (CRITICAL) at work:
// with hash-chain jobs filling the queue, a WinningPoSt submitted behind
// them reaches prove_start before any partition queued after it, and its
// proof verifies with the inputs a verifier derives (comm_r and the
// challenges of the randomness). The daemon path, Curio's requests and
// bad blobs are tests/service/test_curio_post.cpp.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <random>

#include "circuits/compiled_for.hpp"
#include "circuits/post_public_inputs.hpp"
#include "engine_test_support.hpp"
#include "filecoin/post_bincode.hpp"
#include "filecoin/registered_post_proof_t.hpp"
#include "gpu/stream_priority.hpp"
#include "porep/post_challenges.hpp"
#include "porep/post_vanilla.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using namespace cuzk::engine::test_support;

namespace {

porep::bytes32_t randomness_of(uint64_t seed) {
  std::mt19937_64 rng(seed);
  porep::bytes32_t r;
  for (auto& b : r) b = uint8_t(rng());
  r[31] &= 0x3f;
  return r;
}

job_request_t post_job(proof_kind_t kind, uint64_t registered, const std::vector<porep::post_sector_proof_t>& sectors,
                       const porep::bytes32_t& rnd, uint32_t partition = 0) {
  job_request_t r;
  r.proof_kind = kind;
  r.registered_proof = registered;
  for (const auto& s : sectors) {
    const auto blob = filecoin::write_post_sector_bincode(s, filecoin::post_proof_by_id(registered));
    r.vanilla_proofs.emplace_back(blob.begin(), blob.end());
  }
  r.randomness.assign(rnd.begin(), rnd.end());
  r.miner_id = 1000;
  r.partition_index = partition;
  return r;
}

// The 2 KiB WinningPoSt parameters, generated once per process (a setup of
// the whole circuit; the tests below share it).
std::shared_ptr<const groth16::parameters_t> winning_params() {
  static const auto params = [] {
    groth16::seeded_rng rng(cuzk::test::seed("engine_post.winning_parameters"));
    return std::make_shared<const groth16::parameters_t>(groth16::generate_parameters(
        *circuits::make_circuit("winning-post", 2048), groth16::toxic_waste_t::random(rng)));
  }();
  return params;
}

// Holds prove_start closed for every parameter set but `free_params` (the
// WinningPoSt's), so the hash-chain jobs standing in for PoRep keep the
// ordinary workers busy for as long as a test wants. Records, per call, the
// first public input and whether the calling thread asked for high-priority
// CUDA streams (gpu::set_thread_stream_priority).
class held_backend_t final : public prove_backend_t {
 public:
  held_backend_t(std::shared_ptr<prove_backend_t> inner, const groth16::parameters_t* free_params)
      : inner_(std::move(inner)), free_(free_params) {}
  gate_t gate{false};
  struct call_t {
    ff::fr_t first_input;
    bool high_priority;
  };

  std::string name() const override { return inner_->name() + "+held"; }
  uint32_t device_count() const override { return inner_->device_count(); }
  groth16::pending_proof_t prove_start(uint32_t device, const groth16::parameters_t& params,
                                       r1cs::witness_cs&& witness) override {
    {
      std::lock_guard lk(mu_);
      calls_.push_back({witness.input_assignment().at(1), gpu::thread_stream_priority_high()});
    }
    if (&params != free_) gate.pass();
    return inner_->prove_start(device, params, std::move(witness));
  }
  groth16::proof_t finalize(uint32_t device, const groth16::parameters_t& params, groth16::pending_proof_t&& pending,
                            const ff::fr_t& r, const ff::fr_t& s) override {
    return inner_->finalize(device, params, std::move(pending), r, s);
  }
  std::vector<call_t> calls() const {
    std::lock_guard lk(mu_);
    return calls_;
  }

 private:
  std::shared_ptr<prove_backend_t> inner_;
  const groth16::parameters_t* free_;
  mutable std::mutex mu_;
  std::vector<call_t> calls_;
};

struct open_on_exit {
  gate_t& g;
  ~open_on_exit() { g.open(); }
};

// One WinningPoSt sector of 2 KiB and its request (CRITICAL by default).
struct winning_fixture_t {
  std::vector<porep::post_sector_proof_t> sectors;
  job_request_t request;
  explicit winning_fixture_t(const char* seed_name) {
    const uint64_t seed = cuzk::test::seed(seed_name);
    const auto& rp = filecoin::post_proof_by_id(0);
    const auto rnd = randomness_of(seed);
    sectors = porep::generate_post_partition(rp.shape(), rp.api_version, rnd, 0, std::vector<uint64_t>{42}, seed,
                                             porep::post_tree_model_t::full);
    request = post_job(proof_kind_t::winning_post, 0, sectors, rnd);
  }
};

// Two ordinary workers on two devices, held by hash-chain jobs: the budget
// fits them all and the GPU queue has room, so only the workers decide.
engine_config_t held_config(uint32_t critical_workers) {
  auto cfg = small_config(uint64_t(4) << 30);
  cfg.critical_workers_per_device = critical_workers;
  return cfg;
}

}  // namespace

TEST(engine_post, circuit_ids_follow_the_registered_proof) {
  job_request_t r;
  r.proof_kind = proof_kind_t::winning_post;
  r.registered_proof = 3;  // StackedDrgWinning32GiBV1
  EXPECT_EQ(engine_t::circuit_id_for(r), "winning-32g");
  r.registered_proof = 0;
  EXPECT_EQ(engine_t::circuit_id_for(r), "winning-2k");
  r.proof_kind = proof_kind_t::window_post_partition;
  r.registered_proof = 13;  // StackedDrgWindow32GiBV1_1: V1 and V1_1 share a circuit
  EXPECT_EQ(engine_t::circuit_id_for(r), "wpost-32g");
  r.registered_proof = 9;
  EXPECT_EQ(engine_t::circuit_id_for(r), "wpost-64g");
  r.registered_proof = 6;
  EXPECT_EQ(engine_t::circuit_id_for(r), "wpost-8m");
  EXPECT_EQ(engine_t::post_circuit_id(proof_kind_t::window_post_partition, 512ull << 20), "wpost-512m");
  EXPECT_THROW(engine_t::post_circuit_id(proof_kind_t::window_post_partition, 4096), std::invalid_argument);
  EXPECT_THROW(engine_t::post_circuit_id(proof_kind_t::porep_seal_commit, 2048), std::invalid_argument);
  const auto c = filecoin::official_circuit_of_id("winning-32g");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->kind, filecoin::parameter_kind_t::winning_post);
  EXPECT_EQ(c->sector_bytes, 32ull << 30);
  EXPECT_EQ(filecoin::official_circuit_of_id("porep-2k")->kind, filecoin::parameter_kind_t::porep);
  EXPECT_FALSE(filecoin::official_circuit_of_id("wpost-3k").has_value());
  EXPECT_FALSE(filecoin::official_circuit_of_id("hash-chain-256").has_value());
}

TEST(engine_post, bad_requests_are_invalid_and_name_the_field) {
  const uint64_t seed = cuzk::test::seed("engine_post.bad_requests");
  engine_t e(small_config(uint64_t(1) << 30));
  const auto rnd = randomness_of(seed);
  const auto& rp = filecoin::post_proof_by_id(10);
  const auto sectors = porep::generate_post_partition(rp.shape(), rp.api_version, rnd, 0, std::vector<uint64_t>{1, 2},
                                                      seed, porep::post_tree_model_t::full);
  auto expect_invalid = [&](const job_request_t& r, const std::string& needle) {
    try {
      e.submit(r);
      ADD_FAILURE() << "accepted a request that should mention '" << needle << "'";
    } catch (const invalid_request& err) {
      EXPECT_NE(std::string(err.what()).find(needle), std::string::npos) << err.what();
    }
  };
  auto r = post_job(proof_kind_t::window_post_partition, 10, sectors, rnd);
  // Well formed, but no parameters: the message names the circuit id.
  expect_invalid(r, "wpost-2k");
  r.sector_size = 8 << 20;
  expect_invalid(r, "sector_size");
  r = post_job(proof_kind_t::window_post_partition, 10, sectors, rnd);
  r.randomness.pop_back();
  expect_invalid(r, "randomness: 31 bytes, expected 32");
  r = post_job(proof_kind_t::window_post_partition, 10, sectors, rnd);
  r.registered_proof = 15;
  expect_invalid(r, "registered_proof: 15 is not a PoSt proof");
  r = post_job(proof_kind_t::winning_post, 10, sectors, rnd);
  expect_invalid(r, "registered_proof: 10 (StackedDrgWindow2KiBV1_1) is a WindowPoSt proof");
  r = post_job(proof_kind_t::window_post_partition, 10, sectors, rnd);
  r.vanilla_proofs[0][100] ^= 1;
  expect_invalid(r, "vanilla_proofs[0]");
}

TEST(engine_post, winning_post_overtakes_the_queued_partitions) {
  const uint64_t seed = cuzk::test::seed("engine_post.winning_priority");
  // One synthesis worker and one prove worker: partitions leave the
  // scheduler one at a time in its order, and prove_start sees them so.
  auto cfg = small_config(uint64_t(2) << 30);
  cfg.synthesis_threads = 1;
  auto gated = std::make_shared<gated_backend_t>(make_cpu_backend());
  gated->start_gate.close();
  engine_t e(cfg, {gated, nullptr, nullptr});
  open_gates_on_exit guard{*gated};
  register_all(e);

  const auto& rp = filecoin::post_proof_by_id(0);
  const auto params = winning_params();
  e.register_parameters(engine_t::post_circuit_id(proof_kind_t::winning_post, 2048), params);
  const auto rnd = randomness_of(seed);
  const auto sectors = porep::generate_post_partition(rp.shape(), rp.api_version, rnd, 0, std::vector<uint64_t>{42},
                                                      seed, porep::post_tree_model_t::full);

  // The queue filled with NORMAL work, the first partition held at prove_start.
  std::vector<job_request_t> before = {chain_job(4, 11), chain_job(4, 12)};
  std::vector<std::string> ids;
  for (const auto& r : before) ids.push_back(e.submit(r).job_id);
  ASSERT_TRUE(wait_until([&] { return gated->start_gate.waiting() == 1; }));
  const auto winning = post_job(proof_kind_t::winning_post, 0, sectors, rnd);  // priority unspecified
  const std::string winning_id = e.submit(winning).job_id;
  // Queued after it: NORMAL, and even HIGH (WindowPoSt's default) waits behind CRITICAL.
  auto high = chain_job(3, 21);
  high.priority = priority_t::high;
  std::vector<job_request_t> after = {chain_job(3, 20), high};
  for (const auto& r : after) ids.push_back(e.submit(r).job_id);
  gated->start_gate.open();

  const auto res = e.await(winning_id);
  ASSERT_EQ(res.status, job_status_t::completed) << res.error_message;
  ASSERT_EQ(res.proof.size(), groth16::proof_size);
  for (const auto& id : ids) EXPECT_EQ(e.await(id).status, job_status_t::completed);

  // Where each job's partitions reached prove_start (first public input:
  // the sector's comm_r for WinningPoSt, the chain's for hash-chain).
  const auto seen = gated->first_inputs();
  auto first_of = [&](const ff::fr_t& x) {
    for (size_t i = 0; i < seen.size(); ++i)
      if (seen[i] == x) return i;
    return seen.size();
  };
  const size_t w = first_of(sectors[0].comm_r);
  ASSERT_LT(w, seen.size());
  for (const auto& r : after) {
    const size_t a = first_of(expected_inputs(r)[0][0]);
    ASSERT_LT(a, seen.size());
    EXPECT_LT(w, a) << "a partition queued after the WinningPoSt started first";
  }
  // Not last of the earlier work either: only what was already taken off the
  // queue when it arrived (the held partition and what synthesis had ready).
  EXPECT_LT(w, 1 + cfg.queue_depth_per_worker + 2) << "WinningPoSt at prove_start position " << w;
  std::cout << "[engine_post] WinningPoSt reached prove_start " << w << " of " << seen.size() << std::endl;

  // The proof verifies with the chain's inputs: comm_r and the 66 challenged leaves.
  const std::vector<circuits::post_public_sector_t> pub = {
      {sectors[0].comm_r, porep::post_sector_challenges(rp.shape(), rp.api_version, rnd, 42, 0)}};
  groth16::proof_t p;
  ASSERT_TRUE(groth16::decode_proof(res.proof, p).ok());
  EXPECT_TRUE(groth16::verify(params->vk, p, circuits::post_public_inputs(rp.shape(), pub)));
}

TEST(engine_post, winning_post_goes_ahead_of_a_partition_waiting_for_bytes) {
  const uint64_t seed = cuzk::test::seed("engine_post.winning_ahead_of_reserve");
  const auto& rp = filecoin::post_proof_by_id(0);
  const auto params = winning_params();
  const std::string id = engine_t::post_circuit_id(proof_kind_t::winning_post, 2048);
  const auto rnd = randomness_of(seed);
  // Three WinningPoSt partitions of three sectors: two of them asked at
  // NORMAL priority stand in for PoRep work, with the same footprint.
  std::vector<std::vector<porep::post_sector_proof_t>> sectors;
  for (uint64_t k = 0; k < 3; ++k) {
    sectors.push_back(porep::generate_post_partition(rp.shape(), rp.api_version, rnd, 0,
                                                     std::vector<uint64_t>{40 + k}, seed + k,
                                                     porep::post_tree_model_t::full));
  }
  auto normal = [&](size_t k) {
    auto r = post_job(proof_kind_t::winning_post, 0, sectors[k], rnd);
    r.priority = priority_t::normal;
    return r;
  };
  const auto first = normal(0), second = normal(1);
  const auto winning = post_job(proof_kind_t::winning_post, 0, sectors[2], rnd);  // CRITICAL by default

  // Room for one partition beside the parameters; no standing reserve, so
  // only the dispatcher's giving way lets the WinningPoSt through.
  const uint64_t full = footprint_of(winning).full();
  auto cfg = small_config(params->bytes() + full);
  auto gated = std::make_shared<gated_backend_t>(make_cpu_backend());
  gated->finalize_gate.close();
  engine_t e(cfg, {gated, nullptr, nullptr});
  open_gates_on_exit guard{*gated};
  e.register_parameters(id, params);
  auto in_use = [&] { return e.status().loaded_params.at(0).in_use; };

  // The first holds every byte until finalize; the second then waits for bytes.
  const auto a = e.submit(first).job_id;
  ASSERT_TRUE(wait_until([&] { return gated->finalize_gate.waiting() == 1; }));
  ASSERT_EQ(in_use(), 2u);  // the first job and its partition
  const auto b = e.submit(second).job_id;
  // 4: the second job and the partition the dispatcher took (reserve() follows).
  ASSERT_TRUE(wait_until([&] { return in_use() == 4; }));
  const auto w = e.submit(winning).job_id;
  // The second gives way and the WinningPoSt waits for the next freed bytes
  // in its place; release them.
  gated->finalize_gate.open();
  const auto res = e.await(w);
  ASSERT_EQ(res.status, job_status_t::completed) << res.error_message;
  EXPECT_EQ(e.await(a).status, job_status_t::completed);
  EXPECT_EQ(e.await(b).status, job_status_t::completed);

  const auto seen = gated->first_inputs();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], sectors[0][0].comm_r);
  EXPECT_EQ(seen[1], sectors[2][0].comm_r) << "the WinningPoSt should reach prove_start before the waiting partition";
  EXPECT_EQ(seen[2], sectors[1][0].comm_r);
  const std::vector<circuits::post_public_sector_t> pub = {
      {sectors[2][0].comm_r, porep::post_sector_challenges(rp.shape(), rp.api_version, rnd, 42, 0)}};
  groth16::proof_t p;
  ASSERT_TRUE(groth16::decode_proof(res.proof, p).ok());
  EXPECT_TRUE(groth16::verify(params->vk, p, circuits::post_public_inputs(rp.shape(), pub)));
}

// The H200 case: PoRep partitions hold every ordinary worker inside
// prove_start (1.8-3.6 s each); a WinningPoSt must not wait for one of them.
TEST(engine_post, a_critical_worker_proves_winning_post_while_ordinary_workers_are_held) {
  const auto params = winning_params();
  winning_fixture_t winning("engine_post.critical_worker");
  auto held = std::make_shared<held_backend_t>(make_cpu_backend(2), params.get());
  engine_t e(held_config(1), {held, nullptr, nullptr});
  open_on_exit guard{held->gate};
  register_all(e);
  e.register_parameters(engine_t::post_circuit_id(proof_kind_t::winning_post, 2048), params);
  const auto st = e.status();
  ASSERT_EQ(st.workers.size(), 4u);  // 2 devices x (1 ordinary + 1 critical)
  EXPECT_EQ(st.prove_workers, 2u);   // the ordinary ones

  std::vector<std::string> chains;
  for (uint64_t k = 0; k < 2; ++k) chains.push_back(e.submit(chain_job(1, 30 + k)).job_id);
  ASSERT_TRUE(wait_until([&] { return held->gate.waiting() == 2; }));
  const auto w = e.submit(winning.request).job_id;
  const auto res = e.await(w);
  ASSERT_EQ(res.status, job_status_t::completed) << res.error_message;
  // Proven while both ordinary workers are still inside prove_start.
  EXPECT_EQ(held->gate.waiting(), 2);
  for (const auto& id : chains) EXPECT_EQ(e.await(id, std::chrono::milliseconds(0)).status, job_status_t::timeout);
  const auto calls = held->calls();
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[2].first_input, winning.sectors[0].comm_r);
  EXPECT_TRUE(calls[2].high_priority) << "the critical worker's streams should have the greatest priority";
  EXPECT_FALSE(calls[0].high_priority);
  EXPECT_FALSE(calls[1].high_priority);

  held->gate.open();
  for (const auto& id : chains) EXPECT_EQ(e.await(id).status, job_status_t::completed);
  groth16::proof_t p;
  ASSERT_TRUE(groth16::decode_proof(res.proof, p).ok());
}

// A critical worker never takes NORMAL work, even when it is idle and the
// partition waits: its device time is kept for what cannot wait.
TEST(engine_post, a_normal_partition_never_goes_to_a_critical_worker) {
  auto held = std::make_shared<held_backend_t>(make_cpu_backend(1), nullptr);
  engine_t e(held_config(1), {held, nullptr, nullptr});
  open_on_exit guard{held->gate};
  register_all(e);
  ASSERT_EQ(e.status().workers.size(), 2u);
  const auto first = e.submit(chain_job(1, 40)).job_id;
  ASSERT_TRUE(wait_until([&] { return held->gate.waiting() == 1; }));
  // The second (HIGH, below CRITICAL) is synthesized and queued for a worker,
  // and stays there: the only idle one is critical.
  auto high = chain_job(1, 41);
  high.priority = priority_t::high;
  const auto second = e.submit(high).job_id;
  ASSERT_TRUE(wait_until([&] { return e.status().gauges.queued == 1; }));
  EXPECT_EQ(e.await(second, std::chrono::milliseconds(50)).status, job_status_t::timeout);
  EXPECT_EQ(held->calls().size(), 1u);
  EXPECT_EQ(e.status().gauges.queued, 1);
  const auto workers = e.status().workers;
  EXPECT_TRUE(workers.at(0).busy);
  EXPECT_FALSE(workers.at(1).busy);  // the critical worker

  held->gate.open();
  EXPECT_EQ(e.await(first).status, job_status_t::completed);
  EXPECT_EQ(e.await(second).status, job_status_t::completed);
  for (const auto& c : held->calls()) EXPECT_FALSE(c.high_priority);
}

// critical_workers_per_device = 0: the old engine, where a WinningPoSt waits
// for an ordinary worker like any other partition (it is taken first then).
TEST(engine_post, without_critical_workers_winning_post_waits_for_an_ordinary_worker) {
  const auto params = winning_params();
  winning_fixture_t winning("engine_post.no_critical_worker");
  auto held = std::make_shared<held_backend_t>(make_cpu_backend(1), params.get());
  engine_t e(held_config(0), {held, nullptr, nullptr});
  open_on_exit guard{held->gate};
  register_all(e);
  e.register_parameters(engine_t::post_circuit_id(proof_kind_t::winning_post, 2048), params);
  ASSERT_EQ(e.status().workers.size(), 1u);
  const auto chain = e.submit(chain_job(1, 50)).job_id;
  ASSERT_TRUE(wait_until([&] { return held->gate.waiting() == 1; }));
  const auto w = e.submit(winning.request).job_id;
  ASSERT_TRUE(wait_until([&] { return e.status().gauges.queued == 1; }));
  EXPECT_EQ(e.await(w, std::chrono::milliseconds(50)).status, job_status_t::timeout);
  EXPECT_EQ(held->calls().size(), 1u);

  held->gate.open();
  EXPECT_EQ(e.await(w).status, job_status_t::completed);
  EXPECT_EQ(e.await(chain).status, job_status_t::completed);
  const auto calls = held->calls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[1].first_input, winning.sectors[0].comm_r);
  EXPECT_FALSE(calls[1].high_priority);
}

// On the CPU backend a PoSt witness stays compact from synthesis to
// prove_start, which forms its rows (its "rows" step); with
// compact_witness = off it is formed at synthesis. Both proofs verify.
TEST(engine_post, cpu_backend_keeps_the_witness_compact_until_prove_start) {
  const winning_fixture_t f("engine_post.compact");
  const auto params = winning_params();
  for (const auto mode : {engine_config_t::compact_t::automatic, engine_config_t::compact_t::off}) {
    auto cfg = small_config(uint64_t(2) << 30);
    cfg.compact_witness = mode;
    engine_t e(cfg);
    e.register_parameters(engine_t::post_circuit_id(proof_kind_t::winning_post, 2048), params);
    auto req = f.request;
    req.timeline = true;
    const auto res = e.prove(req);
    ASSERT_EQ(res.status, job_status_t::completed) << res.error_message;
    const auto tl = nlohmann::json::parse(e.timeline_json(res.job_id));
    ASSERT_EQ(tl["partitions"].size(), 1u);
    std::vector<std::string> stages;
    for (const auto& ev : tl["partitions"][0]["events"]) stages.push_back(ev["stage"]);
    const bool rows = std::ranges::find(stages, "prove_start.rows") != stages.end();
    EXPECT_EQ(rows, mode == engine_config_t::compact_t::automatic) << "mode " << int(mode);
  }
}

namespace {

// Reserves as the GPU backend does for a compact witness (its footprint,
// gpu_compact_partition_footprint, and after synthesis only the witness's
// own bytes, compact_witness_held_bytes) and proves on the CPU. Records
// what the witness held when prove_start began.
class compact_reserving_backend_t final : public prove_backend_t {
 public:
  explicit compact_reserving_backend_t(std::shared_ptr<prove_backend_t> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return "compact-reserving"; }
  uint32_t device_count() const override { return 1; }
  bool compact_witness() const override { return true; }
  partition_footprint_t footprint(const r1cs::shape_counts_t& s, const witness_form_t& form) const override {
    wide_bound = form.wide_bound.value_or(0);
    return form.compact ? gpu_compact_partition_footprint(s, form.wide_bound) : gpu_partition_footprint(s);
  }
  std::optional<uint64_t> witness_held_bytes(const r1cs::witness_cs& w) const override {
    return compact_witness_held_bytes(w);
  }
  groth16::pending_proof_t prove_start(uint32_t device, const groth16::parameters_t& params,
                                       r1cs::witness_cs&& witness) override {
    held_at_start = compact_witness_held_bytes(witness).value_or(0);
    inputs_at_start = witness.num_inputs();
    return inner_->prove_start(device, params, std::move(witness));
  }
  groth16::proof_t finalize(uint32_t device, const groth16::parameters_t& params, groth16::pending_proof_t&& pending,
                            const ff::fr_t& r, const ff::fr_t& s) override {
    return inner_->finalize(device, params, std::move(pending), r, s);
  }
  std::atomic<uint64_t> held_at_start{0}, inputs_at_start{0};
  mutable std::atomic<uint64_t> wide_bound{0};  // what the engine passed with the last footprint

 private:
  std::shared_ptr<prove_backend_t> inner_;
};

}  // namespace

// Issue 18 part 4: a compact witness whose rows a device forms reserves the
// compact footprint before synthesis and, once synthesized, gives back all
// but its own bytes (event synth_compact), so the partition waits for the
// GPU holding a fraction of its synthesis bytes; the proof verifies, and
// the gauges and the budget return to zero.
TEST(engine_post, a_compact_witness_keeps_only_its_own_bytes_until_prove_start) {
  const winning_fixture_t f("engine_post.compact_reservation");
  const auto backend = std::make_shared<compact_reserving_backend_t>(make_cpu_backend());
  std::mutex mu;
  std::vector<std::pair<std::string, gauge_snapshot_t>> events;
  engine_hooks_t hooks;
  hooks.backend = backend;
  hooks.on_transition = [&](std::string_view ev, const gauge_snapshot_t& g) {
    std::lock_guard lk(mu);
    events.emplace_back(std::string(ev), g);
  };
  {
    engine_t e(small_config(uint64_t(2) << 30), hooks);
    e.register_parameters(engine_t::post_circuit_id(proof_kind_t::winning_post, 2048), winning_params());
    const auto res = e.prove(f.request);
    ASSERT_EQ(res.status, job_status_t::completed) << res.error_message;
    const auto after = e.status().gauges;
    EXPECT_EQ(after.bytes_reserved, 0);
    EXPECT_EQ(after.synthesizing + after.queued + after.on_gpu + after.pending_finalize, 0);
  }
  const auto shape = engine_t::partition_footprint_for(f.request);
  std::lock_guard lk(mu);
  auto at = [&](std::string_view ev) {
    auto it = std::ranges::find_if(events, [&](const auto& e) { return e.first == ev; });
    EXPECT_NE(it, events.end()) << "no event " << ev;
    return it == events.end() ? gauge_snapshot_t{} : it->second;
  };
  const auto reserved = at("reserve"), compacted = at("synth_compact"), started = at("prove_start");
  const uint64_t pending = 32 * backend->inputs_at_start + sizeof(groth16::pending_proof_t);
  ASSERT_GT(backend->held_at_start, 0u);
  // The engine passed the circuit's bound on values other than 0 and 1.
  EXPECT_GT(backend->wide_bound, 0u);
  // Before synthesis: the compact footprint, about half the eager GPU one.
  EXPECT_GT(reserved.bytes_reserved, 0);
  EXPECT_LT(uint64_t(reserved.bytes_reserved), shape.full());
  // From synthesis to prove_start: the witness's own bytes and pending, exactly.
  EXPECT_EQ(uint64_t(compacted.bytes_reserved), backend->held_at_start + pending);
  EXPECT_EQ(uint64_t(started.bytes_reserved), backend->held_at_start + pending);
  EXPECT_LT(compacted.bytes_reserved, reserved.bytes_reserved);
  std::printf("compact reservation: %lld bytes before synthesis, %lld after (eager CPU footprint %llu)\n",
              (long long)reserved.bytes_reserved, (long long)compacted.bytes_reserved,
              (unsigned long long)shape.full());
}

TEST(engine_post, the_compiled_rows_give_the_setups_query_counts) {
  // What `cuzk circuit-info` prints for the parameters, against a setup's.
  EXPECT_EQ(circuits::parameter_query_sizes(*circuits::compiled_for(filecoin::parameter_kind_t::winning_post, 2048)),
            groth16::query_sizes_t::of(*winning_params()));
}
