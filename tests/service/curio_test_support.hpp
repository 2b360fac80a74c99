#pragma once
// The daemon harness of the Curio tests (test_curio_porep.cpp,
// test_curio_post.cpp): a daemon proving on the CPU in a temporary directory,
// the check that it looks for a circuit's parameters under Filecoin's
// official file name, Curio's unary Prove, and the refusal a bad request must
// meet. A suite's fixture is made once per process: its setup takes seconds
// to minutes, and ctest runs each TEST in its own process.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "service/client_t.hpp"
#include "service/daemon_t.hpp"
#include "service/rpc_error.hpp"

namespace cuzk::service::curio_test {

namespace v1 = cuzk::v1;

inline std::span<const uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// A daemon as the Curio tests run it: CPU backend, two synthesis threads, one
// attempt per job, listening on a unix socket in its own temporary directory,
// which is also its param_cache. The directory goes with it.
class curio_daemon_t {
 public:
  // dir_prefix: the temporary directory's name before its random suffix.
  curio_daemon_t(const std::string& dir_prefix, std::uint64_t total_budget) {
    std::string tmpl = (std::filesystem::temp_directory_path() / (dir_prefix + "-XXXXXX")).string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
    daemon_config_t cfg;
    cfg.listen = "unix://" + dir_ + "/cuzk.sock";
    cfg.total_budget = total_budget;
    cfg.backend = "cpu";
    cfg.synthesis_threads = 2;
    cfg.gpu_workers_per_device = 1;
    cfg.max_attempts = 1;
    cfg.param_cache = dir_;
    daemon_ = std::make_unique<daemon_t>(cfg);
  }
  ~curio_daemon_t() {
    daemon_.reset();
    std::filesystem::remove_all(dir_);
  }
  curio_daemon_t(const curio_daemon_t&) = delete;
  curio_daemon_t& operator=(const curio_daemon_t&) = delete;

  const std::string& address() const { return daemon_->address(); }
  engine::engine_t& engine() { return daemon_->engine(); }

  // The daemon's PreloadSRS of circuit `id` reads `official` in param_cache:
  // a stand-in there (a bare 16-byte header, refused at once) is the file its
  // error names. The stand-in is removed afterwards.
  void expect_preload_reads(const std::string& id, const std::string& official) {
    const std::string path = dir_ + "/" + official;
    { std::ofstream(path, std::ios::binary) << std::string(16, '\0'); }
    try {
      client_t(address()).preload(id);
      ADD_FAILURE() << "a 16-byte stand-in was loaded as " << id;
    } catch (const rpc_error& e) {
      EXPECT_NE(std::string(e.what()).find(official), std::string::npos) << e.what();
    }
    std::filesystem::remove(path);
  }

  // One unary Prove with the deadline Curio's [Cuzk] ProveTimeout sets.
  grpc::Status prove(const v1::SubmitProofRequest& r, v1::ProveResponse& out,
                     std::chrono::seconds deadline = std::chrono::minutes(10)) const {
    auto stub = v1::ProvingEngine::NewStub(grpc::CreateChannel(address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + deadline);
    v1::ProveRequest req;
    *req.mutable_submit() = r;
    return stub->Prove(&ctx, req, &out);
  }

  // Refused at submit with INVALID_ARGUMENT, the message holding every
  // fragment. The message travels in the grpc-message trailer, and gRPC C++
  // clients drop metadata above 8 KiB by default (RESOURCE_EXHAUSTED
  // "received initial metadata size exceeds limit" instead of the refusal),
  // so it must stay short whatever the input's size.
  void expect_refused(const v1::SubmitProofRequest& r, std::initializer_list<std::string> fragments) const {
    constexpr size_t max_message = 4096;
    v1::ProveResponse out;
    const auto st = prove(r, out);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << "status " << int(st.error_code()) << ": " << st.error_message().substr(0, 300) << "; result "
        << out.result().ShortDebugString().substr(0, 300);
    for (const auto& f : fragments)
      EXPECT_NE(st.error_message().find(f), std::string::npos)
          << "want '" << f << "' in: " << st.error_message().substr(0, max_message);
    EXPECT_LT(st.error_message().size(), max_message);
  }

 private:
  std::string dir_;
  std::unique_ptr<daemon_t> daemon_;
};

// The gtest base of a Curio suite: one fixture_t, holding a curio_daemon_t
// `server`, made before the suite's first test and dropped after its last.
template <class fixture_t>
class curio_suite_t : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { fixture_ = std::make_unique<fixture_t>(); }
  static void TearDownTestSuite() { fixture_.reset(); }

  static grpc::Status prove(const v1::SubmitProofRequest& r, v1::ProveResponse& out) {
    return fixture_->server.prove(r, out);
  }
  static void expect_refused(const v1::SubmitProofRequest& r, std::initializer_list<std::string> fragments) {
    fixture_->server.expect_refused(r, fragments);
  }

  static inline std::unique_ptr<fixture_t> fixture_;
};

}  // namespace cuzk::service::curio_test
