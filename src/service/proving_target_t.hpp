#pragma once
// Where `cuzk bench` sends its proofs: an engine in this process, or a daemon
// over gRPC. Both answer with the engine's types so one bench loop serves
// both. Implementations are safe to call from several threads.
#include <memory>
#include <string>

#include "engine/engine.hpp"

namespace cuzk::service {

class proving_target_t {
 public:
  virtual ~proving_target_t() = default;
  virtual engine::submit_result_t submit(const engine::job_request_t& request) = 0;
  virtual engine::job_result_t await(const std::string& job_id) = 0;
  virtual engine::engine_status_t status() = 0;
  virtual std::string timeline_json(const std::string& job_id) = 0;
  virtual std::string describe() const = 0;
};

std::unique_ptr<proving_target_t> make_engine_target(engine::engine_t& engine);
std::unique_ptr<proving_target_t> make_daemon_target(const std::string& address);

}  // namespace cuzk::service
