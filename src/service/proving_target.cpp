#include "service/client_t.hpp"
#include "service/proto_mapping.hpp"
#include "service/proving_target_t.hpp"

namespace cuzk::service {
namespace {

class engine_target final : public proving_target_t {
 public:
  explicit engine_target(engine::engine_t& e) : engine_(e) {}
  engine::submit_result_t submit(const engine::job_request_t& r) override { return engine_.submit(r); }
  engine::job_result_t await(const std::string& id) override { return engine_.await(id); }
  engine::engine_status_t status() override { return engine_.status(); }
  std::string timeline_json(const std::string& id) override { return engine_.timeline_json(id); }
  std::string describe() const override { return "in-process engine"; }

 private:
  engine::engine_t& engine_;
};

class daemon_target final : public proving_target_t {
 public:
  explicit daemon_target(const std::string& address) : client_(address) {}
  engine::submit_result_t submit(const engine::job_request_t& r) override {
    auto s = client_.submit(to_submit_request(r));
    return {s.job_id(), s.queue_position()};
  }
  engine::job_result_t await(const std::string& id) override { return from_await_response(client_.await(id)); }
  engine::engine_status_t status() override { return from_status_response(client_.status()); }
  std::string timeline_json(const std::string& id) override { return client_.timeline(id); }
  std::string describe() const override { return "daemon at " + client_.address(); }

 private:
  client_t client_;
};

}  // namespace

std::unique_ptr<proving_target_t> make_engine_target(engine::engine_t& engine) {
  return std::make_unique<engine_target>(engine);
}

std::unique_ptr<proving_target_t> make_daemon_target(const std::string& address) {
  return std::make_unique<daemon_target>(address);
}

}  // namespace cuzk::service
