// The daemon as Curio and the network see it, over loopback TCP:
//  - CurioRetry: Prove with a request_id attaches to the job already under
//    that id (mid-job, after completion, after a client deadline), a failed
//    job's retry is a new attempt, and a conflicting request is refused.
//  - DaemonAccess: [daemon] allow refuses 127.0.0.2 before any RPC when only
//    127.0.0.1 is allowed; TLS and mTLS on tls_listen; the HTTP status
//    listener (GET /status JSON, GET /metrics Prometheus text).
// A gate in the backend holds every prove_start until the test opens it, so
// "while the job runs" is a fact here, not a race.
#include <arpa/inet.h>
#include <grpcpp/create_channel_posix.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "circuits/circuit_input.hpp"
#include "circuits/circuit_registry.hpp"
#include "engine/fault_injecting_backend_t.hpp"
#include "groth16/groth16.hpp"
#include "service/address_range_t.hpp"
#include "service/client_t.hpp"
#include "service/config_error.hpp"
#include "service/daemon_t.hpp"
#include "service/rpc_error.hpp"
#include "service/unique_fd_t.hpp"
#include "test_seed.hpp"

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;
constexpr uint64_t chain_size = 256;

// Holds prove_start calls until opened; opening is for good (teardown opens it
// so no worker stays blocked).
class gate_t {
 public:
  void wait() {
    std::unique_lock lk(mu_);
    ++waiting_;
    cv_.notify_all();
    cv_.wait(lk, [&] { return open_; });
  }
  void open() {
    std::lock_guard lk(mu_);
    open_ = true;
    cv_.notify_all();
  }
  // Until a prove_start has reached the gate: the job is running.
  void await_arrival() {
    std::unique_lock lk(mu_);
    cv_.wait(lk, [&] { return waiting_ > 0 || open_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
  uint32_t waiting_ = 0;
};

// A connected TCP socket to 127.0.0.1:port whose source address is `from`.
unique_fd_t connect_from(const char* from, uint16_t port) {
  unique_fd_t fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  EXPECT_TRUE(fd);
  sockaddr_in src{};
  src.sin_family = AF_INET;
  inet_pton(AF_INET, from, &src.sin_addr);
  EXPECT_EQ(::bind(fd.get(), reinterpret_cast<sockaddr*>(&src), sizeof(src)), 0) << std::strerror(errno);
  sockaddr_in dst{};
  dst.sin_family = AF_INET;
  dst.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.1", &dst.sin_addr);
  EXPECT_EQ(::connect(fd.get(), reinterpret_cast<sockaddr*>(&dst), sizeof(dst)), 0) << std::strerror(errno);
  timeval tv{30, 0};  // a bound on a broken test, not a timing assertion
  ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  return fd;
}

uint16_t port_of(const std::string& address) { return uint16_t(std::stoul(address.substr(address.rfind(':') + 1))); }

struct http_reply_t {
  int status = 0;
  std::string headers, body;
};

// A plain HTTP/1.0 GET over a socket: independent of the server's library.
http_reply_t http_get(const std::string& address, const std::string& path, const char* from = "127.0.0.1") {
  auto fd = connect_from(from, port_of(address));
  const std::string req = "GET " + path + " HTTP/1.0\r\nHost: test\r\n\r\n";
  EXPECT_EQ(::send(fd.get(), req.data(), req.size(), MSG_NOSIGNAL), ssize_t(req.size()));
  std::string all;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd.get(), buf, sizeof(buf), 0)) > 0;) all.append(buf, size_t(n));
  http_reply_t r;
  const size_t end = all.find("\r\n\r\n");
  if (all.rfind("HTTP/1.", 0) != 0 || end == std::string::npos) return r;
  r.status = std::stoi(all.substr(9, 3));
  r.headers = all.substr(0, end);
  r.body = all.substr(end + 4);
  return r;
}

// A self-signed certificate (EC P-256) for CN=localhost, IP 127.0.0.1,
// written as PEM to <dir>/<name>.crt and .key.
void write_self_signed(const std::string& dir, const std::string& name) {
  EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
  ASSERT_NE(key, nullptr);
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASSERT_EQ(ASN1_INTEGER_set(X509_get_serialNumber(cert), long(test::seed("cert serial " + name) & 0x7fffffff)), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* subject = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("localhost"), -1, -1,
                             0);
  X509_set_issuer_name(cert, subject);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  for (auto [nid, value] : {std::pair{NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1"},
                            std::pair{NID_basic_constraints, "critical,CA:TRUE"}}) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    ASSERT_NE(ext, nullptr);
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
  }
  ASSERT_GT(X509_sign(cert, key, EVP_sha256()), 0);
  FILE* f = std::fopen((dir + "/" + name + ".crt").c_str(), "w");
  PEM_write_X509(f, cert);
  std::fclose(f);
  f = std::fopen((dir + "/" + name + ".key").c_str(), "w");
  PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
  X509_free(cert);
  EVP_PKEY_free(key);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

class DaemonOnTcp : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    groth16::seeded_rng rng(test::seed("DaemonOnTcp setup"));
    auto c = circuits::make_circuit("hash-chain", chain_size);
    params_ = std::make_shared<const groth16::parameters_t>(
        groth16::generate_parameters(*c, groth16::toxic_waste_t::random(rng)));
  }
  static void TearDownTestSuite() { params_.reset(); }

  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cuzk-tcp-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    cfg_.listen = "127.0.0.1:0";
    cfg_.allow = {"127.0.0.1/32"};
    cfg_.status_listen = "127.0.0.1:0";
    cfg_.total_budget = uint64_t(4) << 30;
    cfg_.synthesis_threads = 2;
    cfg_.gpu_workers_per_device = 2;
    cfg_.max_attempts = 1;
    cfg_.param_cache = dir_;
  }
  void TearDown() override {
    gate_.open();
    daemon_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Starts the daemon on cfg_, proving on the CPU behind the gate (and
  // failing every prove_start while fail_ is set).
  void start() {
    engine::engine_hooks_t hooks;
    hooks.backend = std::make_shared<engine::fault_injecting_backend_t>(
        engine::make_cpu_backend(), [this](uint64_t, uint32_t) {
          if (gated_) gate_.wait();
          return fail_.load();
        });
    daemon_ = std::make_unique<daemon_t>(cfg_, hooks);
    daemon_->engine().register_parameters("hash-chain-" + std::to_string(chain_size), params_);
  }

  static v1::SubmitProofRequest request(const std::string& id, uint64_t x0, uint32_t partitions = 2) {
    v1::SubmitProofRequest r;
    r.set_request_id(id);
    r.set_proof_kind(v1::CUZK_BUILTIN_CIRCUIT);
    r.set_circuit("hash-chain");
    r.set_circuit_size(chain_size);
    r.set_circuit_input_json(nlohmann::json{{"x0", std::to_string(x0)}}.dump());
    r.set_partitions(partitions);
    return r;
  }

  // Every partition of `r` verifies for the witness x0 (and not for x0 + 1).
  static void expect_valid(const v1::AwaitProofResponse& r, uint64_t x0, uint32_t partitions = 2) {
    ASSERT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED) << r.error_message();
    ASSERT_EQ(r.proof().size(), partitions * groth16::proof_size);
    auto good = circuits::make_circuit_with_input("hash-chain", chain_size, {{"x0", std::to_string(x0)}});
    auto bad = circuits::make_circuit_with_input("hash-chain", chain_size, {{"x0", std::to_string(x0 + 1)}});
    for (uint32_t i = 0; i < partitions; ++i) {
      groth16::proof_t proof;
      auto bytes = std::span(reinterpret_cast<const uint8_t*>(r.proof().data()) + i * groth16::proof_size,
                             groth16::proof_size);
      ASSERT_TRUE(groth16::decode_proof(bytes, proof).ok());
      EXPECT_TRUE(groth16::verify(params_->vk, proof, good->public_inputs())) << "partition " << i;
      EXPECT_FALSE(groth16::verify(params_->vk, proof, bad->public_inputs()));
    }
  }

  // Prove as Curio's client calls it: one unary call, optionally with a deadline.
  grpc::Status prove(const v1::SubmitProofRequest& r, v1::ProveResponse& out,
                     std::optional<std::chrono::milliseconds> deadline = std::nullopt) {
    auto stub = v1::ProvingEngine::NewStub(grpc::CreateChannel(daemon_->address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext ctx;
    if (deadline) ctx.set_deadline(std::chrono::system_clock::now() + *deadline);
    v1::ProveRequest req;
    *req.mutable_submit() = r;
    return stub->Prove(&ctx, req, &out);
  }

  // Jobs the engine has not finished (queued or in the pipeline).
  uint32_t unfinished_jobs() {
    uint32_t n = 0;
    const auto s = client_t(daemon_->address()).status();
    for (const auto& q : s.queues()) n += q.pending() + q.in_progress();
    return n;
  }

  static inline std::shared_ptr<const groth16::parameters_t> params_;
  std::string dir_;
  daemon_config_t cfg_;
  gate_t gate_;
  std::atomic<bool> gated_{false}, fail_{false};
  std::unique_ptr<daemon_t> daemon_;
};

using CurioRetry = DaemonOnTcp;
using DaemonAccess = DaemonOnTcp;

TEST_F(CurioRetry, SameRequestIdMidJobAttachesAndAfterCompletionReturnsTheResult) {
  gated_ = true;
  start();
  const uint64_t x0 = test::seed("CurioRetry x0") % 1000000;
  const auto req = request("porep-1000-7", x0);
  v1::ProveResponse first, second;
  grpc::Status first_status, second_status;
  std::jthread a([&] { first_status = prove(req, first); });
  gate_.await_arrival();  // the job is inside prove_start: running
  // A second Prove and a SubmitProof with the same request_id while it runs:
  // no second job.
  std::jthread b([&] { second_status = prove(req, second); });
  auto s = client_t(daemon_->address()).submit(req);
  EXPECT_EQ(s.job_id(), "porep-1000-7");
  EXPECT_EQ(unfinished_jobs(), 1u);
  // A Prove whose deadline passes mid-job: DEADLINE_EXCEEDED for that client,
  // and the job goes on.
  v1::ProveResponse timed_out;
  EXPECT_EQ(prove(req, timed_out, std::chrono::milliseconds(300)).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_EQ(unfinished_jobs(), 1u);
  // A different request under the same id while the job runs is refused,
  // naming the conflict; the running job is untouched.
  v1::ProveResponse conflict;
  auto other = req;
  other.set_circuit_input_json(nlohmann::json{{"x0", std::to_string(x0 + 5)}}.dump());
  auto st = prove(other, conflict);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("porep-1000-7"), std::string::npos) << st.error_message();
  EXPECT_NE(st.error_message().find("different"), std::string::npos) << st.error_message();

  gate_.open();
  a.join();
  b.join();
  ASSERT_TRUE(first_status.ok()) << first_status.error_message();
  ASSERT_TRUE(second_status.ok()) << second_status.error_message();
  expect_valid(first.result(), x0);
  EXPECT_EQ(second.result().proof(), first.result().proof());  // the same job's proof, not a second proving
  // Curio's retry after its deadline: the retained result, no new job.
  v1::ProveResponse retry;
  ASSERT_TRUE(prove(req, retry).ok());
  EXPECT_EQ(retry.result().proof(), first.result().proof());
  auto status = client_t(daemon_->address()).status();
  EXPECT_EQ(status.total_proofs_completed(), 1u);
  EXPECT_EQ(status.total_proofs_failed(), 0u);
  auto m = client_t(daemon_->address()).metrics();
  EXPECT_NE(m.find("cuzk_proofs_completed_total 1\n"), std::string::npos) << m;

  // After completion a different request under that id is a new job (the
  // old result would be a proof of other inputs).
  ASSERT_TRUE(prove(other, conflict).ok());
  expect_valid(conflict.result(), x0 + 5);
  EXPECT_EQ(client_t(daemon_->address()).status().total_proofs_completed(), 2u);
}

TEST_F(CurioRetry, FailedJobIsRetriedAsANewAttempt) {
  fail_ = true;
  start();
  const auto req = request("snap-1000-9", 42);
  v1::ProveResponse out;
  ASSERT_TRUE(prove(req, out).ok());  // a failed proof is not an RPC error
  EXPECT_EQ(out.result().status(), v1::AwaitProofResponse::FAILED);
  EXPECT_NE(out.result().error_message().find("injected"), std::string::npos) << out.result().error_message();
  fail_ = false;
  v1::ProveResponse retry;
  ASSERT_TRUE(prove(req, retry).ok());
  expect_valid(retry.result(), 42);
  auto s = client_t(daemon_->address()).status();
  EXPECT_EQ(s.total_proofs_failed(), 1u);
  EXPECT_EQ(s.total_proofs_completed(), 1u);
  // And the completed retry is now what the id returns.
  ASSERT_TRUE(prove(req, retry).ok());
  expect_valid(retry.result(), 42);
  EXPECT_EQ(client_t(daemon_->address()).status().total_proofs_completed(), 1u);
}

TEST_F(DaemonAccess, AddressOutsideAllowIsRefusedBeforeAnyRpc) {
  start();
  const uint16_t port = port_of(daemon_->address());
  // Raw TCP from 127.0.0.2: the daemon closes the connection without a byte.
  {
    auto fd = connect_from("127.0.0.2", port);
    char c;
    ssize_t n = ::recv(fd.get(), &c, 1, 0);
    EXPECT_TRUE(n == 0 || (n < 0 && errno == ECONNRESET)) << "recv returned " << n << ": " << std::strerror(errno);
  }
  // A real gRPC client on a socket from 127.0.0.2: the call fails, no RPC ran.
  {
    auto fd = connect_from("127.0.0.2", port);
    auto channel = grpc::CreateInsecureChannelFromFd("refused", fd.release());
    auto stub = v1::ProvingEngine::NewStub(channel);
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    v1::GetStatusResponse out;
    EXPECT_EQ(stub->GetStatus(&ctx, {}, &out).error_code(), grpc::StatusCode::UNAVAILABLE);
  }
  // The same from 127.0.0.1 works, through a socket of ours and as Curio dials.
  {
    auto fd = connect_from("127.0.0.1", port);
    auto stub = v1::ProvingEngine::NewStub(grpc::CreateInsecureChannelFromFd("allowed", fd.release()));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    v1::GetStatusResponse out;
    EXPECT_TRUE(stub->GetStatus(&ctx, {}, &out).ok());
  }
  // Garbage from an allowed address does not hurt the daemon.
  {
    auto fd = connect_from("127.0.0.1", port);
    const std::string junk = "GET / HTTP/1.1\r\n\r\n\x01\x02 not http2";
    ::send(fd.get(), junk.data(), junk.size(), MSG_NOSIGNAL);
    char buf[256];
    while (::recv(fd.get(), buf, sizeof(buf), 0) > 0) {
    }
  }
  v1::ProveResponse out;
  ASSERT_TRUE(prove(request("after-refusals", 11), out).ok());
  expect_valid(out.result(), 11);
  // The status listener applies the same list.
  EXPECT_EQ(http_get(daemon_->status_address(), "/status", "127.0.0.2").status, 403);
  EXPECT_EQ(http_get(daemon_->status_address(), "/status").status, 200);
}

TEST_F(DaemonAccess, DefaultAllowsLoopbackOnly) {
  daemon_config_t d;
  ASSERT_EQ(d.allow, default_allow_list());
  const auto ranges = d.allow_ranges();
  auto addr = [](const char* a) { return *numeric_address(a); };
  auto ok = [&](const char* a) {
    auto s = addr(a);
    return allowed(ranges, reinterpret_cast<const sockaddr*>(&s));
  };
  EXPECT_TRUE(ok("127.0.0.1"));
  EXPECT_TRUE(ok("127.0.0.2"));
  EXPECT_TRUE(ok("::1"));
  EXPECT_TRUE(ok("::ffff:127.0.0.1"));  // an IPv4 client on a dual-stack [::] listener
  EXPECT_FALSE(ok("10.0.0.1"));
  EXPECT_FALSE(ok("::2"));
  EXPECT_FALSE(ok("::ffff:10.0.0.1"));
  const auto wide = parse_allow_list({"10.1.2.3/8", "fd00::/8"});
  EXPECT_EQ(wide[0].text(), "10.0.0.0/8");
  auto in_wide = [&](const char* a) {
    auto s = addr(a);
    return allowed(wide, reinterpret_cast<const sockaddr*>(&s));
  };
  EXPECT_TRUE(in_wide("10.255.0.1"));
  EXPECT_FALSE(in_wide("11.0.0.1"));
  EXPECT_TRUE(in_wide("fd12::1"));
  EXPECT_FALSE(in_wide("fe80::1"));
  EXPECT_TRUE(grpc_peer_address("ipv6:[::1]:5000").has_value());
  EXPECT_TRUE(grpc_peer_address("ipv4:127.0.0.2:5000").has_value());
  EXPECT_FALSE(grpc_peer_address("unix:/tmp/x.sock").has_value());
  EXPECT_FALSE(grpc_peer_address("fd:7").has_value());
}

TEST_F(DaemonAccess, BadAllowAndTlsKeysAreNamed) {
  auto rejected = [](const std::string& toml, std::vector<std::string> fragments) {
    try {
      parse_daemon_config(toml, "t.toml");
      ADD_FAILURE() << "accepted: " << toml;
    } catch (const config_error& e) {
      for (const auto& f : fragments) EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
    }
  };
  rejected("[daemon]\nallow = [\"10.0.0.0/33\"]\n", {"daemon.allow", "10.0.0.0/33", "prefix"});
  rejected("[daemon]\nallow = [\"localhost\"]\n", {"daemon.allow", "localhost"});
  rejected("[daemon]\nallow = []\n", {"daemon.allow", "empty"});
  rejected("[daemon]\nallow = \"127.0.0.1\"\n", {"daemon.allow", "array"});
  rejected("[daemon]\nstatus_listen = \"unix:///tmp/s.sock\"\n", {"daemon.status_listen", "IP:port"});
  rejected("[daemon]\nstatus_listen = \"localhost:9821\"\n", {"daemon.status_listen", "numeric"});
  rejected("[daemon]\ntls_cert = \"/c.pem\"\n", {"daemon.tls_cert", "tls_listen"});
  rejected("[daemon]\ntls_listen = \"127.0.0.1:9822\"\ntls_cert = \"/c.pem\"\n", {"daemon.tls_key"});
  auto c = parse_daemon_config(
      "[daemon]\nallow = [\"127.0.0.1\", \"192.168.0.0/16\"]\nstatus_listen = \"127.0.0.1:9821\"\n", "t.toml");
  EXPECT_EQ(c.allow.size(), 2u);
  EXPECT_EQ(c.status_listen, "127.0.0.1:9821");
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();  // status_listen is a key now, not "no effect"
  // A certificate file that is not PEM stops the daemon naming key and file.
  { std::ofstream(dir_ + "/bad.pem") << "not a certificate"; }
  cfg_.tls_listen = "127.0.0.1:0";
  cfg_.tls_cert = dir_ + "/bad.pem";
  cfg_.tls_key = dir_ + "/bad.pem";
  try {
    start();
    ADD_FAILURE() << "started with a bad certificate";
  } catch (const config_error& e) {
    EXPECT_NE(std::string(e.what()).find("daemon.tls_"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad.pem"), std::string::npos) << e.what();
  }
}

TEST_F(DaemonAccess, TlsWithClientCertificates) {
  write_self_signed(dir_, "server");
  write_self_signed(dir_, "client");
  cfg_.tls_listen = "127.0.0.1:0";
  cfg_.tls_cert = dir_ + "/server.crt";
  cfg_.tls_key = dir_ + "/server.key";
  cfg_.tls_client_ca = dir_ + "/client.crt";
  start();
  ASSERT_FALSE(daemon_->tls_address().empty());
  auto call = [&](std::shared_ptr<grpc::ChannelCredentials> creds) {
    auto stub = v1::ProvingEngine::NewStub(grpc::CreateChannel(daemon_->tls_address(), creds));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    v1::GetStatusResponse out;
    return stub->GetStatus(&ctx, {}, &out);
  };
  grpc::SslCredentialsOptions with_cert;
  with_cert.pem_root_certs = read_file(dir_ + "/server.crt");
  with_cert.pem_cert_chain = read_file(dir_ + "/client.crt");
  with_cert.pem_private_key = read_file(dir_ + "/client.key");
  EXPECT_TRUE(call(grpc::SslCredentials(with_cert)).ok());
  grpc::SslCredentialsOptions no_cert;
  no_cert.pem_root_certs = with_cert.pem_root_certs;
  EXPECT_FALSE(call(grpc::SslCredentials(no_cert)).ok());  // mTLS: no client certificate, no call
  grpc::SslCredentialsOptions wrong_cert = with_cert;        // a certificate the CA did not sign
  wrong_cert.pem_cert_chain = read_file(dir_ + "/server.crt");
  wrong_cert.pem_private_key = read_file(dir_ + "/server.key");
  EXPECT_FALSE(call(grpc::SslCredentials(wrong_cert)).ok());
  EXPECT_FALSE(call(grpc::InsecureChannelCredentials()).ok());  // plaintext on the TLS port
  // Curio's plaintext client keeps working on the plain listener.
  v1::ProveResponse out;
  ASSERT_TRUE(prove(request("plain-beside-tls", 3), out).ok());
  expect_valid(out.result(), 3);
}

TEST_F(DaemonAccess, TlsListenerAppliesTheAllowList) {
  write_self_signed(dir_, "server");
  cfg_.allow = {"10.0.0.0/8"};  // loopback clients are not allowed at all
  cfg_.tls_listen = "127.0.0.1:0";
  cfg_.tls_cert = dir_ + "/server.crt";
  cfg_.tls_key = dir_ + "/server.key";
  start();
  grpc::SslCredentialsOptions o;
  o.pem_root_certs = read_file(dir_ + "/server.crt");
  auto stub = v1::ProvingEngine::NewStub(grpc::CreateChannel(daemon_->tls_address(), grpc::SslCredentials(o)));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  v1::ProveRequest req;
  *req.mutable_submit() = request("from-loopback", 1);
  v1::ProveResponse out;
  auto st = stub->Prove(&ctx, req, &out);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::PERMISSION_DENIED) << st.error_message();
  EXPECT_EQ(daemon_->engine().status().completed + daemon_->engine().status().queue_depth, 0u);  // no job was made
}

TEST_F(DaemonAccess, StatusAndMetricsOverHttp) {
  start();
  v1::ProveResponse out;
  ASSERT_TRUE(prove(request("http-1", 8), out).ok());
  expect_valid(out.result(), 8);

  auto r = http_get(daemon_->status_address(), "/status");
  ASSERT_EQ(r.status, 200) << r.headers;
  EXPECT_NE(r.headers.find("application/json"), std::string::npos) << r.headers;
  EXPECT_NE(r.headers.find("Access-Control-Allow-Origin: *"), std::string::npos) << r.headers;
  auto j = nlohmann::json::parse(r.body);
  const auto s = daemon_->engine().status();
  EXPECT_GE(j["uptime_secs"].get<double>(), 0.0);
  EXPECT_EQ(j["memory"]["total_bytes"].get<uint64_t>(), uint64_t(4) << 30);
  EXPECT_EQ(j["memory"]["used_bytes"].get<uint64_t>() + j["memory"]["available_bytes"].get<uint64_t>(),
            uint64_t(4) << 30);
  // The daemon's critical_reserve is auto: one 64 GiB WinningPoSt partition's footprint, at most 1/8 of the budget.
  const uint64_t critical = daemon_->engine().plan().critical_reserve;
  EXPECT_GT(critical, 0u);
  EXPECT_LE(critical, (uint64_t(4) << 30) / 8);
  EXPECT_EQ(j["memory"]["critical_reserve_bytes"].get<uint64_t>(), critical);
  EXPECT_EQ(j["synthesis"]["max_concurrent"].get<uint32_t>(), s.synthesis_workers);
  EXPECT_EQ(j["synthesis"]["active"].get<int64_t>(), 0);
  EXPECT_TRUE(j["pipelines"].is_array());
  ASSERT_EQ(j["gpu_workers"].size(), s.workers.size());
  for (const auto& w : j["gpu_workers"]) EXPECT_EQ(w["state"], "idle");
  bool loaded = false;
  for (const auto& p : j["allocations"]["srs"]) loaded |= p["circuit_id"] == "hash-chain-" + std::to_string(chain_size);
  EXPECT_TRUE(loaded) << j["allocations"].dump();
  EXPECT_TRUE(j["allocations"]["pce"].is_array());
  EXPECT_EQ(j["counters"]["total_completed"].get<uint64_t>(), 1u);
  EXPECT_EQ(j["counters"]["total_failed"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["counters"]["queue_depth"].get<uint32_t>(), 0u);
  for (const char* k : {"synth_in_flight", "provers_in_flight", "aux_in_flight", "shells_in_flight", "pending_handles"}) {
    EXPECT_EQ(j["buffers"][k].get<int64_t>(), 0) << k;
  }

  auto m = http_get(daemon_->status_address(), "/metrics");
  ASSERT_EQ(m.status, 200);
  EXPECT_NE(m.headers.find("text/plain"), std::string::npos) << m.headers;
  EXPECT_NE(m.body.find("cuzk_proofs_completed_total 1\n"), std::string::npos) << m.body;
  EXPECT_NE(m.body.find("# TYPE cuzk_uptime_seconds gauge"), std::string::npos) << m.body;
  EXPECT_NE(m.body.find("cuzk_memory_critical_reserve_bytes " + std::to_string(critical) + "\n"), std::string::npos)
      << m.body;
  EXPECT_EQ(http_get(daemon_->status_address(), "/nothing-here").status, 404);
}

TEST_F(DaemonAccess, TakenPortIsAConfigError) {
  start();
  daemon_config_t second = cfg_;
  second.listen = daemon_->address();
  EXPECT_THROW(daemon_t d(second), config_error);
  second.listen = "127.0.0.1:0";
  second.status_listen = daemon_->status_address();
  EXPECT_THROW(daemon_t d(second), config_error);
  // The first daemon is unharmed.
  EXPECT_EQ(client_t(daemon_->address()).status().total_proofs_failed(), 0u);
}

}  // namespace
}  // namespace cuzk::service
