// Parameters whose queries the backend holds itself: the host copy is
// released after loading, proofs still verify, the CPU fallback reads the
// file again, and the backend is told to forget them when they are freed.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "circuits/compiled_for.hpp"
#include "engine/never_fits.hpp"
#include "engine/partition_footprint_t.hpp"

#include "engine_test_support.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using namespace cuzk::engine::test_support;

namespace {

// Stands in for the GPU backend's device-resident bases: release_host_copy
// keeps a private copy of H and B_g2 ("on the device") and frees them from
// the parameters; prove_start proves from the private copy. With `fail`
// every prove_start throws, so partitions go to the CPU fallback.
// With `streams`, it holds H and B_g2 of parameter files read query by query
// instead: the engine never reads them, prepare_from_file reads them from the
// file into the private copy (with `fail_load`, it throws instead, so the
// engine reads the whole file).
class resident_backend_t final : public prove_backend_t {
 public:
  explicit resident_backend_t(bool fail = false, bool streams = false, bool fail_load = false)
      : fail_(fail), streams_(streams), fail_load_(fail_load) {}
  std::atomic<int> released{0}, forgotten{0}, proved_from_resident{0}, loaded_from_file{0};

  uint32_t device_queries_for(const std::string&, const groth16::query_sizes_t&) override {
    return streams_ ? 0b10001 : 0;
  }
  void prepare_from_file(const groth16::parameters_t& params, uint32_t unread, const groth16::parameter_file_t& file,
                         ec::subgroup_check chk) override {
    EXPECT_EQ(unread, 0b10001u);
    EXPECT_TRUE(params.h.empty() && params.b_g2.empty()) << "the engine read queries the backend holds";
    EXPECT_FALSE(params.l.empty());
    if (fail_load_) throw std::runtime_error("resident backend: injected load failure");
    groth16::parameters_t full = params;
    full.h = file.g1_query(0, chk);
    full.b_g2 = file.g2_query(chk);
    std::lock_guard lk(mu_);
    resident_[&params] = std::move(full);
    ++loaded_from_file;
  }

  std::string name() const override { return "resident"; }
  uint32_t device_count() const override { return 1; }
  uint64_t release_host_copy(groth16::parameters_t& params) override {
    std::lock_guard lk(mu_);
    auto& kept = resident_[&params];
    kept = params;
    const uint64_t freed = params.h.size() * sizeof(params.h[0]) + params.b_g2.size() * sizeof(params.b_g2[0]);
    std::vector<groth16::g1_affine_t>().swap(params.h);
    std::vector<groth16::g2_affine_t>().swap(params.b_g2);
    ++released;
    return freed;
  }
  void forget(const groth16::parameters_t& params) override {
    std::lock_guard lk(mu_);
    if (resident_.erase(&params)) ++forgotten;
  }
  groth16::pending_proof_t prove_start(uint32_t, const groth16::parameters_t& params,
                                       r1cs::witness_cs&& witness) override {
    if (fail_) throw std::runtime_error("resident backend: injected failure");
    const groth16::parameters_t* full = &params;
    {
      std::lock_guard lk(mu_);
      if (auto it = resident_.find(&params); it != resident_.end()) {
        EXPECT_TRUE(params.h.empty()) << "the engine handed out parameters whose H was released, still with H";
        full = &it->second;
        ++proved_from_resident;
      }
    }
    return groth16::prove_start(*full, std::move(witness));
  }
  groth16::proof_t finalize(uint32_t, const groth16::parameters_t& params, groth16::pending_proof_t&& pending,
                            const ff::fr_t& r, const ff::fr_t& s) override {
    return groth16::finalize(params, std::move(pending), r, s);
  }

 private:
  bool fail_, streams_, fail_load_;
  std::mutex mu_;
  std::map<const groth16::parameters_t*, groth16::parameters_t> resident_;
};

struct param_dir_t {
  std::filesystem::path dir;
  param_dir_t() {
    static std::atomic<int> n{0};
    dir = std::filesystem::temp_directory_path() /
          ("cuzk_engine_params_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    std::filesystem::create_directories(dir);
    groth16::write_parameters((dir / "tiny.params").string(), *params_for("tiny"));
  }
  ~param_dir_t() { std::filesystem::remove_all(dir); }
  uint64_t file_bytes() const { return std::filesystem::file_size(dir / "tiny.params"); }
};

uint64_t released_bytes(const groth16::parameters_t& p) {
  return p.h.size() * sizeof(p.h[0]) + p.b_g2.size() * sizeof(p.b_g2[0]);
}

}  // namespace

TEST(engine_params, a_loaded_file_releases_the_host_copy_the_backend_holds_and_proofs_verify) {
  param_dir_t files;
  auto backend = std::make_shared<resident_backend_t>();
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.param_cache = files.dir.string();
  {
    engine_t e(c, {backend, nullptr, nullptr});
    auto req = tiny_job({4, 5, 6});
    expect_verifies(e.prove(req), req);
    EXPECT_EQ(backend->released, 1);
    EXPECT_EQ(backend->proved_from_resident, 3);
    auto s = e.status();
    ASSERT_EQ(s.loaded_params.size(), 1u);
    EXPECT_EQ(s.loaded_params[0].host_released, released_bytes(*params_for("tiny")));
    // The charge stays the file's: the CPU fallback may have to read it again.
    EXPECT_EQ(s.loaded_params[0].bytes, files.file_bytes());
    EXPECT_EQ(s.budget_reserved, files.file_bytes());
    // A second job finds them loaded: no second release.
    expect_verifies(e.prove(req), req);
    EXPECT_EQ(backend->released, 1);
    // Evicted and no longer used: the backend frees its copy.
    EXPECT_TRUE(e.evict("tiny").was_loaded);
    EXPECT_EQ(backend->forgotten, 1);
    EXPECT_EQ(e.status().budget_reserved, 0u);
    // Loaded again from the file: released again, proofs still verify.
    expect_verifies(e.prove(req), req);
    EXPECT_EQ(backend->released, 2);
  }
  EXPECT_EQ(backend->forgotten, 2);  // the engine's last entry, at shutdown
}

TEST(engine_params, the_cpu_fallback_reads_the_file_again_after_a_release) {
  param_dir_t files;
  auto backend = std::make_shared<resident_backend_t>(/*fail=*/true);
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.param_cache = files.dir.string();
  c.max_attempts = 3;
  engine_t e(c, {backend, nullptr, nullptr});
  auto req = tiny_job({7, 8});
  // Every partition fails on the only device, then proves on the CPU with
  // the complete parameters read from the file.
  expect_verifies(e.prove(req), req);
  EXPECT_EQ(backend->released, 1);
  EXPECT_EQ(backend->proved_from_resident, 0);
  EXPECT_EQ(e.status().loaded_params.at(0).host_released, released_bytes(*params_for("tiny")));
}

TEST(engine_params, release_host_params_off_keeps_the_host_copy) {
  param_dir_t files;
  auto backend = std::make_shared<resident_backend_t>();
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.param_cache = files.dir.string();
  c.release_host_params = false;
  engine_t e(c, {backend, nullptr, nullptr});
  auto req = tiny_job({9});
  expect_verifies(e.prove(req), req);
  EXPECT_EQ(backend->released, 0);
  EXPECT_EQ(e.status().loaded_params.at(0).host_released, 0u);
}

TEST(engine_params, a_file_read_query_by_query_never_holds_the_backends_queries_and_proofs_verify) {
  param_dir_t files;
  auto backend = std::make_shared<resident_backend_t>(/*fail=*/false, /*streams=*/true);
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.param_cache = files.dir.string();
  const auto& full = *params_for("tiny");
  const uint64_t held = full.bytes() - released_bytes(full);  // L, A, B_g1 and the vk
  {
    engine_t e(c, {backend, nullptr, nullptr});
    auto req = tiny_job({11, 12});
    expect_verifies(e.prove(req), req);
    EXPECT_EQ(backend->loaded_from_file, 1);
    EXPECT_EQ(backend->released, 0);  // never read, nothing to release
    EXPECT_EQ(backend->proved_from_resident, 2);
    auto s = e.status();
    ASSERT_EQ(s.loaded_params.size(), 1u);
    EXPECT_EQ(s.loaded_params[0].bytes, held);  // the charge: what host memory holds
    EXPECT_EQ(s.loaded_params[0].host_released, released_bytes(full));
    EXPECT_EQ(s.budget_reserved, held);
    EXPECT_LT(held, files.file_bytes());
    // Evicted and read again the same way.
    EXPECT_TRUE(e.evict("tiny").was_loaded);
    EXPECT_EQ(backend->forgotten, 1);
    expect_verifies(e.prove(req), req);
    EXPECT_EQ(backend->loaded_from_file, 2);
  }
  EXPECT_EQ(backend->forgotten, 2);
}

TEST(engine_params, a_budget_below_the_file_and_a_partition_admits_a_job_whose_parameters_load_query_by_query) {
  param_dir_t files;
  const auto footprint = partition_footprint(circuits::make_circuit("tiny")->prove_shape());
  // One byte short of the file and one partition: a whole read can never fit.
  engine_config_t c = small_config(files.file_bytes() + footprint.full() - 1);
  c.critical_reserve = 0;
  c.param_cache = files.dir.string();
  {
    engine_t e(c, {std::make_shared<resident_backend_t>(), nullptr, nullptr});
    EXPECT_THROW(e.submit(tiny_job({16})), never_fits);
  }
  // Read query by query (H and B_g2 never in host memory), it fits and proves.
  auto backend = std::make_shared<resident_backend_t>(/*fail=*/false, /*streams=*/true);
  engine_t e(c, {backend, nullptr, nullptr});
  auto req = tiny_job({16, 17});
  expect_verifies(e.prove(req), req);
  EXPECT_EQ(backend->loaded_from_file, 1);
  EXPECT_EQ(backend->proved_from_resident, 2);
  EXPECT_LT(e.status().loaded_params.at(0).bytes, files.file_bytes());
}

TEST(engine_params, a_failed_load_to_the_devices_reads_the_whole_file_instead) {
  param_dir_t files;
  auto backend = std::make_shared<resident_backend_t>(/*fail=*/false, /*streams=*/true, /*fail_load=*/true);
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.param_cache = files.dir.string();
  engine_t e(c, {backend, nullptr, nullptr});
  auto req = tiny_job({13});
  expect_verifies(e.prove(req), req);
  EXPECT_EQ(backend->loaded_from_file, 0);
  EXPECT_EQ(backend->released, 1);  // the whole read, then the release as before
  EXPECT_EQ(e.status().loaded_params.at(0).bytes, files.file_bytes());
}

TEST(engine_params, the_cpu_fallback_after_a_load_query_by_query_reserves_and_reads_the_whole_file) {
  param_dir_t files;
  auto backend = std::make_shared<resident_backend_t>(/*fail=*/true, /*streams=*/true);
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.param_cache = files.dir.string();
  c.max_attempts = 3;
  engine_t e(c, {backend, nullptr, nullptr});
  auto req = tiny_job({14, 15});
  // Every partition fails on the only device, then proves on the CPU with
  // the complete parameters read from the file, paid from the budget then.
  expect_verifies(e.prove(req), req);
  EXPECT_EQ(backend->loaded_from_file, 1);
  EXPECT_EQ(backend->proved_from_resident, 0);
  const auto& full = *params_for("tiny");
  EXPECT_EQ(e.status().budget_reserved, full.bytes() - released_bytes(full) + full.bytes());
}

TEST(engine_params, registered_parameters_are_never_released_but_are_forgotten) {
  auto backend = std::make_shared<resident_backend_t>();
  engine_config_t c = small_config(uint64_t(1) << 30);
  {
    engine_t e(c, {backend, nullptr, nullptr});
    e.register_parameters("tiny", params_for("tiny"));  // nothing could reload them
    auto req = tiny_job({10});
    expect_verifies(e.prove(req), req);
    EXPECT_EQ(backend->released, 0);
    EXPECT_FALSE(params_for("tiny")->h.empty());
  }
  EXPECT_EQ(backend->forgotten, 0);  // it never held them; forget found nothing
}

namespace {

// The CPU backend, but prepare() of parameters with `slow_h` H points waits
// at a gate: it runs inside the parameter load (param_store_t's ready hook),
// so that id's load lasts until the test opens it.
class slow_prepare_backend_t final : public cpu_forwarding_backend_t {
 public:
  explicit slow_prepare_backend_t(size_t slow_h) : slow_h_(slow_h) {}
  gate_t gate{false};

  std::string name() const override { return "slow-prepare"; }
  void prepare(const groth16::parameters_t& params) override {
    if (params.h.size() == slow_h_) gate.pass();
  }

 private:
  size_t slow_h_;
};

struct open_on_exit {
  gate_t& g;
  ~open_on_exit() { g.open(); }
};

}  // namespace

TEST(engine_params, a_slow_load_of_one_id_does_not_hold_up_a_job_whose_parameters_are_loaded) {
  param_dir_t files;
  const std::string chain_id = "hash-chain-" + std::to_string(small_chain);
  const auto chain = params_for("hash-chain", small_chain);
  groth16::write_parameters((files.dir / (chain_id + ".params")).string(), *chain);
  ASSERT_NE(chain->h.size(), params_for("tiny")->h.size());
  auto backend = std::make_shared<slow_prepare_backend_t>(chain->h.size());
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.synthesis_threads = 1;  // one dispatcher, one synthesis worker: nothing to spare
  c.param_cache = files.dir.string();
  engine_t e(c, {backend, nullptr, nullptr});
  open_on_exit guard{backend->gate};
  e.register_parameters("tiny", params_for("tiny"));

  // First in the queue, same priority: its file is read, then its load waits at the gate.
  const auto slow = chain_job(2, 3);
  const auto slow_id = e.submit(slow).job_id;
  ASSERT_TRUE(wait_until([&] { return backend->gate.waiting() == 1; }));
  const auto fast = tiny_job({5, 6});
  const auto fast_id = e.submit(fast).job_id;
  // Proven while the other load is still held (a generous bound on a
  // failure that would otherwise hang, not a timing claim).
  const auto res = e.await(fast_id, std::chrono::minutes(2));
  expect_verifies(res, fast);
  EXPECT_EQ(backend->gate.waiting(), 1);
  EXPECT_EQ(e.await(slow_id, std::chrono::milliseconds(0)).status, job_status_t::timeout);
  backend->gate.open();
  const auto done = e.await(slow_id);
  expect_verifies(done, slow);
  EXPECT_GT(e.status().loaded_params.size(), 1u);
}

TEST(engine_params, a_job_waiting_for_a_load_can_be_cancelled_and_the_engine_stops) {
  param_dir_t files;
  auto backend = std::make_shared<slow_prepare_backend_t>(params_for("tiny")->h.size());
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.param_cache = files.dir.string();
  auto e = std::make_unique<engine_t>(c, engine_hooks_t{backend, nullptr, nullptr});
  open_on_exit guard{backend->gate};
  const auto id = e->submit(tiny_job({1})).job_id;
  ASSERT_TRUE(wait_until([&] { return backend->gate.waiting() == 1; }));
  EXPECT_FALSE(e->cancel(id));  // never started
  EXPECT_EQ(e->await(id).status, job_status_t::cancelled);
  backend->gate.open();
  e->stop();  // joins the loader
  e.reset();
}

TEST(engine_params, a_bad_file_fails_its_jobs_with_the_reason) {
  param_dir_t files;
  {
    std::ofstream bad(files.dir / "tiny.params", std::ios::binary | std::ios::trunc);
    bad << "not a parameter file";
  }
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.param_cache = files.dir.string();
  engine_t e(c);
  const auto a = e.submit(tiny_job({1})).job_id, b = e.submit(tiny_job({2, 3})).job_id;
  for (const auto& id : {a, b}) {
    const auto r = e.await(id);
    EXPECT_EQ(r.status, job_status_t::failed);
    EXPECT_NE(r.error_message.find("loading parameters for 'tiny'"), std::string::npos) << r.error_message;
  }
}

namespace {

// The CPU backend, recording the residency claims and prepares it is given,
// in order: "claim <id> <rank> <bytes> <loaded|announced>", "prepare <h points>".
// With `forms_rows`, it says it forms compact witnesses' rows itself (as the
// GPU backend), so the engine claims their compiled rows too ("rows" lines).
class claim_recording_backend_t final : public cpu_forwarding_backend_t {
 public:
  explicit claim_recording_backend_t(bool forms_rows = false) : forms_rows_(forms_rows) {}
  std::string name() const override { return "claims"; }
  bool compact_witness() const override { return forms_rows_; }
  void claim_rows(const std::string& id, uint64_t bytes) override {
    std::lock_guard lk(mu_);
    log_.push_back(fmt::format("rows {} {}", id, bytes));
  }
  void claim_residency(const std::string& id, uint32_t rank, uint64_t bytes,
                       const groth16::parameters_t* params) override {
    std::lock_guard lk(mu_);
    log_.push_back(fmt::format("claim {} {} {} {}", id, rank, bytes, params ? "loaded" : "announced"));
  }
  void prepare(const groth16::parameters_t& params) override {
    std::lock_guard lk(mu_);
    log_.push_back(fmt::format("prepare {}", params.h.size()));
  }
  std::vector<std::string> log() const {
    std::lock_guard lk(mu_);
    return log_;
  }

 private:
  bool forms_rows_;
  mutable std::mutex mu_;
  std::vector<std::string> log_;
};

}  // namespace

TEST(engine_params, a_backend_that_forms_rows_gets_the_compiled_rows_claimed_before_the_parameters) {
  param_dir_t files;
  groth16::write_parameters((files.dir / "porep-2k.params").string(), *params_for("hash-chain", small_chain));
  auto backend = std::make_shared<claim_recording_backend_t>(/*forms_rows=*/true);
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.param_cache = files.dir.string();
  engine_t e(c, {backend, nullptr, nullptr});
  EXPECT_FALSE(e.preload("porep-2k").already_loaded);
  EXPECT_FALSE(e.preload("tiny").already_loaded);  // built in: no compiled rows
  EXPECT_TRUE(e.preload("porep-2k").already_loaded);
  // The device copy's bytes: the matrices, the coefficients and the instances of the 2 KiB partition's rows.
  const auto view = circuits::compiled_for(filecoin::parameter_kind_t::porep, 2048)->view();
  uint64_t rows = view.bytes();
  for (const auto& b : view.blocks) rows += b.instances.size() * sizeof(b.instances[0]);
  EXPECT_GT(rows, uint64_t(10) << 20);  // tens of MiB for 2.69 M rows (BENCHMARKS.md: the host block is 76 MiB)
  EXPECT_LT(rows, uint64_t(200) << 20);
  const auto log = backend->log();
  const auto claimed = std::ranges::find(log, fmt::format("rows porep-2k {}", rows));
  const auto placed = std::ranges::find_if(log, [](const std::string& l) {
    return l.starts_with("claim porep-2k 2 ") && l.ends_with(" loaded");
  });
  EXPECT_NE(claimed, log.end()) << fmt::format("{}", fmt::join(log, "; "));
  EXPECT_LT(claimed - log.begin(), placed - log.begin()) << "rows claimed after the parameters were placed";
  EXPECT_EQ(std::ranges::count_if(log, [](const std::string& l) { return l.starts_with("rows "); }), 1);
}

TEST(engine_params, preloads_announce_every_set_then_load_the_highest_priority_first) {
  // Three files under the ids PoSt and PoRep jobs use (tiny parameters of
  // three sizes, so each prepare says which set it is).
  param_dir_t files;
  const std::string ids[3] = {"porep-2k", "wpost-2k", "winning-2k"};
  const size_t chains[3] = {small_chain, small_chain / 2, small_chain / 4};
  uint64_t bytes[3], loaded[3], h[3];
  for (int i = 0; i < 3; ++i) {
    const auto p = params_for("hash-chain", chains[i]);
    const auto path = files.dir / (ids[i] + ".params");
    groth16::write_parameters(path.string(), *p);
    bytes[i] = std::filesystem::file_size(path);
    loaded[i] = p->bytes();
    h[i] = p->h.size();
  }
  ASSERT_NE(h[0], h[1]);
  ASSERT_NE(h[1], h[2]);
  auto backend = std::make_shared<claim_recording_backend_t>();
  engine_config_t c = small_config(uint64_t(1) << 30);
  c.param_cache = files.dir.string();
  engine_t e(c, {backend, nullptr, nullptr});
  // Listed PoRep first, as an operator might.
  const auto done = e.preload_all({ids[0], ids[1], ids[2]});
  ASSERT_EQ(done.size(), 3u);
  EXPECT_EQ(done[0].first, "winning-2k");
  EXPECT_EQ(done[1].first, "wpost-2k");
  EXPECT_EQ(done[2].first, "porep-2k");
  const std::vector<std::string> expected = {
      fmt::format("claim porep-2k 2 {} announced", bytes[0]),
      fmt::format("claim wpost-2k 3 {} announced", bytes[1]),
      fmt::format("claim winning-2k 4 {} announced", bytes[2]),
      // Loaded: each claims again with its parameters (their bytes in memory), then is prepared.
      fmt::format("claim winning-2k 4 {} loaded", loaded[2]), fmt::format("prepare {}", h[2]),
      fmt::format("claim wpost-2k 3 {} loaded", loaded[1]), fmt::format("prepare {}", h[1]),
      fmt::format("claim porep-2k 2 {} loaded", loaded[0]), fmt::format("prepare {}", h[0])};
  EXPECT_EQ(backend->log(), expected);
  // Each official id's compiled rows were built on preload, with their bound:
  // the 2 KiB PoRep partition's is 43,806 (CompiledRowsEmulated.WideBoundHolds...
  // measures a random witness's real count equal to it); a PoSt partition's
  // aux are nearly all wide (Poseidon), so its bound is most of its aux.
  ASSERT_TRUE(done[2].second.wide_bound.has_value());
  EXPECT_EQ(*done[2].second.wide_bound, 43806u);
  for (int i : {0, 1}) {
    ASSERT_TRUE(done[i].second.wide_bound.has_value()) << done[i].first;
    EXPECT_GT(*done[i].second.wide_bound, 0u) << done[i].first;
  }
  // A second preload finds them built (the same shared instance the jobs use).
  const auto again = e.preload("porep-2k");
  EXPECT_TRUE(again.already_loaded);
  EXPECT_EQ(again.wide_bound, done[2].second.wide_bound);
  EXPECT_LT(again.compile_ms, 50u);
  // An unknown id is refused naming it, after nothing was loaded for it.
  EXPECT_THROW(e.preload_all({"wpost-64g"}), invalid_request);
}

TEST(engine_params, circuit_ids_rank_as_their_jobs_default_priority) {
  EXPECT_EQ(circuit_priority("winning-32g"), effective_priority(priority_t::unspecified, proof_kind_t::winning_post));
  EXPECT_EQ(circuit_priority("winning-2k"), priority_t::critical);
  EXPECT_EQ(circuit_priority("wpost-64g"), priority_t::high);
  EXPECT_EQ(circuit_priority("porep-32g"), priority_t::normal);
  EXPECT_EQ(circuit_priority("snap-32g"), priority_t::normal);
  EXPECT_EQ(circuit_priority("tiny"), priority_t::normal);
}
