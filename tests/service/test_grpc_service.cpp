// The daemon end to end over a unix socket in a temporary directory: many
// concurrent proofs from several clients, every proof checked by our
// verifier; results outlive the submitting client; malformed requests, unknown
// jobs, cancel, status and metrics.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include <fmt/format.h>

#include "circuits/circuit_input.hpp"
#include "circuits/circuit_registry.hpp"
#include "groth16/groth16.hpp"
#include "porep/vanilla_generator.hpp"
#include "porep/vanilla_json.hpp"
#include "service/client_t.hpp"
#include "service/config_error.hpp"
#include "service/daemon_t.hpp"
#include "service/rpc_error.hpp"
#include "test_seed.hpp"

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;
constexpr uint64_t chain_size = 512;

struct circuit_params {
  std::string name;
  uint64_t size;
  std::shared_ptr<const groth16::parameters_t> params;
};

class GrpcService : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    groth16::seeded_rng rng(test::seed("GrpcService setup"));
    for (auto [name, size] : {std::pair<std::string, uint64_t>{"tiny", 0}, {"hash-chain", chain_size}}) {
      auto c = circuits::make_circuit(name, size);
      auto p = std::make_shared<const groth16::parameters_t>(
          groth16::generate_parameters(*c, groth16::toxic_waste_t::random(rng)));
      circuits_.push_back({name, size, std::move(p)});
    }
  }
  static void TearDownTestSuite() { circuits_.clear(); }

  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cuzk-svc-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    daemon_config_t cfg;
    cfg.listen = "unix://" + dir_ + "/sub/cuzk.sock";  // the daemon creates sub/
    cfg.total_budget = uint64_t(4) << 30;
    cfg.synthesis_threads = 2;
    cfg.gpu_workers_per_device = 2;
    cfg.param_cache = dir_;
    daemon_ = std::make_unique<daemon_t>(cfg);
    for (const auto& c : circuits_) {
      engine::job_request_t probe;
      probe.proof_kind = engine::proof_kind_t::circuit;
      probe.circuit = c.name;
      probe.circuit_size = c.size;
      daemon_->engine().register_parameters(engine::engine_t::circuit_id_for(probe), c.params);
    }
  }
  void TearDown() override {
    daemon_.reset();
    std::filesystem::remove_all(dir_);
  }

  static v1::SubmitProofRequest request(const std::string& circuit, const nlohmann::json& input, uint32_t partitions = 1) {
    v1::SubmitProofRequest r;
    r.set_proof_kind(v1::CUZK_BUILTIN_CIRCUIT);
    r.set_circuit(circuit);
    r.set_circuit_size(circuit == "tiny" ? 0 : chain_size);
    if (!input.is_null()) r.set_circuit_input_json(input.dump());
    r.set_partitions(partitions);
    return r;
  }

  // Checks each 192-byte partition proof of `response` against the public
  // inputs the circuit computes from `inputs[i]`, with our verifier.
  static void expect_valid(const v1::AwaitProofResponse& response, const std::string& circuit,
                           const std::vector<nlohmann::json>& inputs) {
    ASSERT_EQ(response.status(), v1::AwaitProofResponse::COMPLETED) << response.error_message();
    ASSERT_EQ(response.proof().size(), inputs.size() * groth16::proof_size);
    const auto& params = *std::find_if(circuits_.begin(), circuits_.end(), [&](const auto& c) {
                           return c.name == circuit;
                         })->params;
    for (size_t i = 0; i < inputs.size(); ++i) {
      groth16::proof_t proof;
      auto bytes = std::span(reinterpret_cast<const uint8_t*>(response.proof().data()) + i * groth16::proof_size,
                             groth16::proof_size);
      ASSERT_TRUE(groth16::decode_proof(bytes, proof).ok());
      auto c = circuits::make_circuit_with_input(circuit, circuit == "tiny" ? 0 : chain_size, inputs[i]);
      EXPECT_TRUE(groth16::verify(params.vk, proof, c->public_inputs())) << circuit << " partition " << i;
      // The same proof must not verify for another witness's public inputs.
      nlohmann::json other = inputs[i];
      other.begin().value() = std::to_string(std::stoull(other.begin().value().get<std::string>()) + 1);
      auto d = circuits::make_circuit_with_input(circuit, circuit == "tiny" ? 0 : chain_size, other);
      EXPECT_FALSE(groth16::verify(params.vk, proof, d->public_inputs()));
    }
  }

  static nlohmann::json input_for(const std::string& circuit, uint64_t v) {
    return {{circuit == "tiny" ? "x" : "x0", std::to_string(v)}};
  }

  client_t client() { return client_t(daemon_->address()); }

  static inline std::vector<circuit_params> circuits_;
  std::string dir_;
  std::unique_ptr<daemon_t> daemon_;
};

TEST_F(GrpcService, ManyConcurrentProofsAllVerify) {
  constexpr int clients = 6, per_client = 4;
  uint64_t base = test::seed("GrpcService inputs") % 1000000;
  std::vector<std::vector<std::pair<v1::AwaitProofResponse, std::vector<nlohmann::json>>>> got(clients);
  std::vector<std::string> circuit_of(clients * per_client);
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < clients; ++t) {
      threads.emplace_back([&, t] {
        client_t c = client();  // one channel per client thread, as separate processes would
        for (int k = 0; k < per_client; ++k) {
          int id = t * per_client + k;
          std::string circuit = id % 2 ? "tiny" : "hash-chain";
          uint32_t partitions = id % 3 == 0 ? 2 : 1;
          std::vector<nlohmann::json> inputs;
          for (uint32_t p = 0; p < partitions; ++p) inputs.push_back(input_for(circuit, base + 10 * id + p));
          circuit_of[id] = circuit;
          auto req = request(circuit, partitions == 1 ? inputs[0] : nlohmann::json(inputs));
          req.set_partitions(0);  // a JSON array gives one partition per element
          if (k % 2 == 0) {
            got[t].push_back({c.prove(req).result(), inputs});
          } else {
            auto s = c.submit(req);
            got[t].push_back({c.await(s.job_id()), inputs});
          }
        }
      });
    }
  }
  for (int t = 0; t < clients; ++t) {
    ASSERT_EQ(got[t].size(), size_t(per_client));
    for (int k = 0; k < per_client; ++k) expect_valid(got[t][k].first, circuit_of[t * per_client + k], got[t][k].second);
  }
  auto s = client().status();
  EXPECT_EQ(s.total_proofs_completed(), uint64_t(clients * per_client));
  EXPECT_EQ(s.total_proofs_failed(), 0u);
}

TEST_F(GrpcService, ResultOutlivesTheSubmittingClient) {
  std::string job_id;
  {
    client_t a = client();
    auto req = request("hash-chain", input_for("hash-chain", 77));
    req.set_request_id("abandoned-by-its-client");
    job_id = a.submit(req).job_id();
    EXPECT_EQ(job_id, "abandoned-by-its-client");  // request_id becomes the job id
    // A's wait gives up quickly (a deadline the job may or may not beat); the job keeps running.
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(20));
    v1::AwaitProofRequest await_req;
    await_req.set_job_id(job_id);
    v1::AwaitProofResponse ignored;
    auto stub = v1::ProvingEngine::NewStub(grpc::CreateChannel(daemon_->address(), grpc::InsecureChannelCredentials()));
    stub->AwaitProof(&ctx, await_req, &ignored);
  }  // client A and its channel are gone
  expect_valid(client().await(job_id), "hash-chain", {input_for("hash-chain", 77)});
  // And again: the result stays until the retention time passes.
  expect_valid(client().await(job_id), "hash-chain", {input_for("hash-chain", 77)});
}

TEST_F(GrpcService, MalformedRequestsAreInvalidArgument) {
  auto c = client();
  auto expect_invalid = [&](const v1::SubmitProofRequest& r, const std::string& fragment) {
    try {
      c.submit(r);
      ADD_FAILURE() << "accepted: " << r.ShortDebugString();
    } catch (const rpc_error& e) {
      EXPECT_EQ(e.code(), grpc::StatusCode::INVALID_ARGUMENT) << e.what();
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  auto r = request("tiny", nullptr);
  r.set_proof_kind(v1::PROOF_KIND_UNSPECIFIED);
  expect_invalid(r, "proof_kind");
  r.set_proof_kind(static_cast<v1::ProofKind>(7));
  expect_invalid(r, "proof_kind");
  expect_invalid(request("no-such-circuit", nullptr), "no-such-circuit");
  auto bad_json = request("tiny", nullptr);
  bad_json.set_circuit_input_json("{\"x\": ");
  expect_invalid(bad_json, "");
  expect_invalid(request("tiny", {{"y", "3"}}), "y");
  expect_invalid(request("tiny", nullptr, 5000), "partitions");
  auto porep = request("", nullptr);
  porep.set_proof_kind(v1::POREP_SEAL_COMMIT);
  porep.set_vanilla_proof("not a C1 output");
  expect_invalid(porep, "vanilla_proof");
  // A well-formed 2 KiB vanilla proof with one label changed: refused before
  // any parameters are needed, naming the element.
  auto vanilla = porep::generate_vanilla(porep::sector_params_for(2048), test::seed("GrpcService porep"));
  vanilla.partitions[0].challenges[0].column.rows[1] += ff::fr_t::one();
  porep.set_vanilla_proof(porep::vanilla_to_json(vanilla).dump());
  expect_invalid(porep, "partitions[0].challenges[0].column.column[1]");

  // Prove without its submit field, and waits without a job id.
  grpc::ClientContext ctx;
  v1::ProveResponse out;
  auto stub = v1::ProvingEngine::NewStub(grpc::CreateChannel(daemon_->address(), grpc::InsecureChannelCredentials()));
  EXPECT_EQ(stub->Prove(&ctx, v1::ProveRequest{}, &out).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  try {
    c.await("");
    ADD_FAILURE();
  } catch (const rpc_error& e) {
    EXPECT_EQ(e.code(), grpc::StatusCode::INVALID_ARGUMENT);
  }
  // The daemon still proves after all that.
  expect_valid(c.prove(request("tiny", input_for("tiny", 5))).result(), "tiny", {input_for("tiny", 5)});
}

TEST_F(GrpcService, UnknownJobIsNotFound) {
  auto c = client();
  for (auto call : std::vector<std::function<void()>>{[&] { c.await("no-such-job"); }, [&] { c.cancel("no-such-job"); },
                                                      [&] { c.timeline("no-such-job"); }}) {
    try {
      call();
      ADD_FAILURE() << "no error";
    } catch (const rpc_error& e) {
      EXPECT_EQ(e.code(), grpc::StatusCode::NOT_FOUND) << e.what();
      EXPECT_TRUE(e.is_caller_error());
    }
  }
}

TEST_F(GrpcService, CancelStopsAQueuedJob) {
  auto c = client();
  // A long job first keeps the pipeline busy, so the second is still queued when cancelled.
  auto busy = request("hash-chain", input_for("hash-chain", 1), 8);
  auto first = c.submit(busy);
  auto victim = request("hash-chain", input_for("hash-chain", 2), 8);
  victim.set_priority(v1::LOW);
  auto second = c.submit(victim);
  c.cancel(second.job_id());
  auto r = c.await(second.job_id());
  EXPECT_EQ(r.status(), v1::AwaitProofResponse::CANCELLED);
  EXPECT_TRUE(r.proof().empty());
  EXPECT_EQ(c.await(first.job_id()).status(), v1::AwaitProofResponse::COMPLETED);
  auto s = c.status();
  EXPECT_EQ(s.total_proofs_cancelled(), 1u);
  EXPECT_EQ(s.total_proofs_completed(), 1u);
}

TEST_F(GrpcService, AwaitTimeoutReportsTimeoutAndTheJobContinues) {
  auto c = client();
  auto s = c.submit(request("hash-chain", input_for("hash-chain", 3), 8));
  auto r = c.await(s.job_id(), 1);  // 1 ms: far shorter than 8 partitions take
  EXPECT_EQ(r.status(), v1::AwaitProofResponse::TIMEOUT);
  EXPECT_EQ(c.await(s.job_id()).status(), v1::AwaitProofResponse::COMPLETED);
}

TEST_F(GrpcService, StatusMetricsAndTimeline) {
  auto c = client();
  auto req = request("tiny", input_for("tiny", 9), 3);
  req.set_partitions(3);
  req.set_timeline(true);
  auto sub = c.submit(req);
  ASSERT_EQ(c.await(sub.job_id()).status(), v1::AwaitProofResponse::COMPLETED);

  auto s = c.status();
  EXPECT_EQ(s.total_proofs_completed(), 1u);
  EXPECT_EQ(s.total_proofs_failed(), 0u);
  // The backend in use (gpus.backend = auto: cuda on a GPU machine, else
  // cpu): 2 prove workers per device it has.
  const auto& plan = daemon_->engine().plan();
  const auto engine_status = daemon_->engine().status();
  ASSERT_FALSE(engine_status.workers.empty());
  const std::string backend = engine_status.workers.front().backend;
  const uint32_t workers = 2 * uint32_t(plan.devices.size());
  EXPECT_EQ(s.prove_workers(), workers);
  // Each listed with its device, the critical-only workers (default 1 per device) after them.
  const uint32_t listed = workers + plan.critical_workers;
  EXPECT_EQ(s.gpus_size(), int(listed));
  EXPECT_EQ(s.memory_budget_bytes(), uint64_t(4) << 30);
  EXPECT_GT(s.peak_rss_bytes(), 0u);
  EXPECT_GE(s.peak_rss_bytes(), s.rss_bytes());
  EXPECT_GT(s.process_cpu_seconds(), 0);  // it proved: some CPU was spent
  EXPECT_GE(s.cpu_cores(), 1u);
  // Idle: every pipeline gauge is back at zero and no worker holds a job.
  EXPECT_EQ(s.partitions_synthesizing() + s.partitions_queued() + s.partitions_proving() + s.partitions_finalizing(), 0u);
  for (const auto& g : s.gpus()) {
    EXPECT_TRUE(g.current_job_id().empty());
    if (backend == "cpu") {
      // The CPU backend: its name, which worker, and no device memory to report.
      EXPECT_EQ(g.name().rfind("cpu (cpu worker ", 0), 0u) << g.name();
      EXPECT_EQ(g.vram_total_bytes(), 0u);
    } else {
      // A GPU: the device's name and memory as the driver reports them.
      EXPECT_FALSE(g.name().empty());
      EXPECT_GT(g.vram_total_bytes(), 0u) << backend << " " << g.name();
      EXPECT_LE(g.vram_free_bytes(), g.vram_total_bytes());
    }
  }
  bool tiny_loaded = false;
  for (const auto& p : s.loaded_srs()) tiny_loaded |= p.circuit_id() == "tiny";
  EXPECT_TRUE(tiny_loaded);

  auto m = c.metrics();
  EXPECT_NE(m.find("cuzk_proofs_completed_total 1\n"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_proofs_failed_total 0\n"), std::string::npos) << m;
  EXPECT_NE(m.find("# TYPE cuzk_uptime_seconds gauge"), std::string::npos) << m;
  EXPECT_NE(m.find(fmt::format("cuzk_gpu_workers {}\n", listed)), std::string::npos) << m;

  auto t = nlohmann::json::parse(c.timeline(sub.job_id()));
  ASSERT_EQ(t["partitions"].size(), 3u);
  for (const auto& p : t["partitions"]) {
    std::vector<std::string> stages;
    for (const auto& e : p["events"]) {
      stages.push_back(e["stage"]);
      EXPECT_LE(e["start_ms"].get<double>(), e["end_ms"].get<double>());
    }
    // The engine may record more stages (queue, verify); these three come in this order.
    auto at = [&](const std::string& name) { return std::find(stages.begin(), stages.end(), name) - stages.begin(); };
    EXPECT_LT(at("synthesis"), at("prove_start"));
    EXPECT_LT(at("prove_start"), at("finalize"));
    EXPECT_LT(at("finalize"), std::ptrdiff_t(stages.size()));
  }
}

TEST_F(GrpcService, DrainFinishesAcceptedJobsThenRefuses) {
  auto c = client();
  auto s = c.submit(request("hash-chain", input_for("hash-chain", 4), 8));
  std::jthread stopper([this] { daemon_->shutdown(); });
  auto r = c.await(s.job_id());  // answered although the daemon is draining
  expect_valid(r, "hash-chain", std::vector<nlohmann::json>(8, input_for("hash-chain", 4)));
  stopper.join();
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/sub/cuzk.sock"));
  EXPECT_THROW(c.status(), rpc_error);
}

TEST_F(GrpcService, StaleSocketIsReplacedLiveOneRefused) {
  daemon_config_t cfg;
  cfg.listen = "unix://" + dir_ + "/sub/cuzk.sock";
  cfg.total_budget = uint64_t(1) << 30;
  EXPECT_THROW(daemon_t second(cfg), config_error);  // the fixture's daemon is live there
  daemon_.reset();
  // Leave a stale socket file behind, as a crashed daemon would.
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::string path = dir_ + "/sub/cuzk.sock";
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ::close(fd);
  ASSERT_TRUE(std::filesystem::exists(path));
  daemon_t third(cfg);
  EXPECT_EQ(client_t(third.address()).status().total_proofs_completed(), 0u);
  third.shutdown();
  // A regular file is never deleted.
  { std::ofstream(path) << "not a socket"; }
  EXPECT_THROW(daemon_t fourth(cfg), config_error);
}

}  // namespace
}  // namespace cuzk::service
